// Unified diff → files and hunks, file classification, and shrinking to a budget. Pure.

export type LeftOutReason = 'secret_file' | 'lock' | 'generated' | 'vendored' | 'minified' | 'binary';

const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/**
 * A path as git prints it → the path: the TAB git appends to a name with spaces (and anything after it) cut,
 * C-style quoting ("a/t\303\251st") decoded. Done before any classification: `.env\t` is still a .env file.
 */
export function unquoteGitPath(raw: string): string {
  const s = raw.replace(/\t.*$/, '');
  if (!(s.length >= 2 && s.startsWith('"') && s.endsWith('"'))) return s;
  const bytes: number[] = [];
  const body = s.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch !== '\\') {
      bytes.push(...Buffer.from(ch, 'utf8'));
      continue;
    }
    const oct = /^[0-7]{3}/.exec(body.slice(i + 1));
    if (oct) {
      bytes.push(parseInt(oct[0], 8));
      i += 3;
    } else {
      const next = body[++i] ?? '';
      bytes.push(ESCAPES[next] ?? next.charCodeAt(0));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

const stripSide = (p: string): string => p.replace(/^[ab]\//, '');

/** The b-side path of a `diff --git` line, quoted or not. */
function pathOfDiffLine(line: string): string {
  const quoted = /^diff --git ("(?:[^"\\]|\\.)*"|\S+) ("(?:[^"\\]|\\.)*"|\S+)$/.exec(line);
  if (quoted && (quoted[1]!.startsWith('"') || quoted[2]!.startsWith('"'))) return stripSide(unquoteGitPath(quoted[2]!));
  const plain = /^diff --git a\/(.*) b\/(.*)$/.exec(line);
  return plain ? plain[2]! : '';
}

export interface Hunk {
  header: string;
  lines: string[];
}

export interface DiffFile {
  path: string;
  /** Header lines kept for the judge (diff --git, rename, new/deleted file, ---/+++). */
  header: string[];
  hunks: Hunk[];
  added: number;
  removed: number;
  bytes: number;
  binary: boolean;
}

/** Splits `git diff` output into files; text before the first `diff --git` is ignored. */
export function parseUnifiedDiff(text: string): DiffFile[] {
  const files: DiffFile[] = [];
  const chunks = text.split(/^(?=diff --git )/m).filter((c) => c.startsWith('diff --git '));
  for (const chunk of chunks) {
    const lines = chunk.replace(/\n$/, '').split('\n');
    const header: string[] = [];
    const hunks: Hunk[] = [];
    let path = pathOfDiffLine(lines[0]!);
    let binary = false;
    let added = 0;
    let removed = 0;
    for (const line of lines) {
      const hunk = hunks[hunks.length - 1];
      if (line.startsWith('@@')) {
        hunks.push({ header: line, lines: [] });
      } else if (hunk) {
        hunk.lines.push(line);
        if (line.startsWith('+')) added++;
        else if (line.startsWith('-')) removed++;
      } else {
        if (line.startsWith('+++ ') && !line.startsWith('+++ /dev/null')) path = stripSide(unquoteGitPath(line.slice(4)));
        else if (line.startsWith('rename to ')) path = unquoteGitPath(line.slice(10));
        if (/^Binary files .* differ$/.test(line) || line === 'GIT binary patch') binary = true;
        // index lines carry no meaning for a reviewer; everything else of the header stays.
        if (!line.startsWith('index ') && !binary) header.push(line);
        else if (binary && header.length === 0) header.push(lines[0]!);
      }
    }
    files.push({ path, header, hunks, added, removed, bytes: Buffer.byteLength(chunk), binary });
  }
  return files;
}

const LOCK_FILES = new Set([
  'package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lockb', 'bun.lock', 'Cargo.lock', 'poetry.lock',
  'Pipfile.lock', 'Gemfile.lock', 'composer.lock', 'go.sum', 'mix.lock', 'pubspec.lock', 'packages.lock.json', 'flake.lock', 'uv.lock',
]);

/**
 * Why a file is left out of the judge's diff, or null when it is source the judge should read. `isSecretFile`
 * (the secret table's file names) comes first: such a file is named, never shown.
 */
export function classifyFile(file: DiffFile, isSecretFile: (path: string) => boolean = () => false): LeftOutReason | null {
  const p = file.path;
  const base = p.split('/').pop() ?? p;
  if (isSecretFile(p)) return 'secret_file';
  if (file.binary) return 'binary';
  if (LOCK_FILES.has(base) || /\.lock$/.test(base)) return 'lock';
  if (/(^|\/)(vendor|vendors|node_modules|third[_-]party|bower_components|jspm_packages)\//.test(p)) return 'vendored';
  if (/\.min\.(js|mjs|cjs|css)$/.test(base) || /[.-]bundle\.(js|mjs)$/.test(base)) return 'minified';
  const longest = file.hunks.reduce((m, h) => h.lines.reduce((mm, l) => Math.max(mm, l.length), m), 0);
  if (/\.(js|mjs|cjs|css|json|svg|map)$/.test(base) && longest > 1000) return 'minified';
  if (/\.map$/.test(base)) return 'generated';
  if (/(^|\/)(dist|build|out|coverage|__generated__|generated|\.next)\//.test(p)) return 'generated';
  if (/\.(generated|gen|g)\.[A-Za-z]+$/.test(base) || /_pb2(_grpc)?\.py$|\.pb\.(go|cc|h)$|_generated\.[a-z]+$/.test(base)) return 'generated';
  const head = file.hunks[0]?.lines.slice(0, 8).join('\n') ?? '';
  if (/@generated\b|DO NOT EDIT|auto-generated|autogenerated/i.test(head)) return 'generated';
  return null;
}

export interface ShrinkResult {
  text: string;
  /** Per file: diff lines not sent and hunks shortened. */
  shrunk: { path: string; lines_cut: number; hunks_cut: number }[];
}

const hunkSize = (h: Hunk): number => h.lines.reduce((s, l) => s + l.length + 1, 0);

/** Keeps the head and tail of a hunk within `cap` characters, with a marker saying how many lines were cut. */
function cutHunk(h: Hunk, cap: number): { lines: string[]; cut: number } {
  if (hunkSize(h) <= cap) return { lines: h.lines, cut: 0 };
  const headCap = Math.floor((cap * 2) / 3);
  const head: string[] = [];
  const tail: string[] = [];
  let used = 0;
  for (const l of h.lines) {
    if (used + l.length + 1 > headCap) break;
    head.push(l);
    used += l.length + 1;
  }
  let tailUsed = 0;
  for (let i = h.lines.length - 1; i >= head.length; i--) {
    const l = h.lines[i]!;
    if (used + tailUsed + l.length + 1 > cap) break;
    tail.unshift(l);
    tailUsed += l.length + 1;
  }
  const cut = h.lines.length - head.length - tail.length;
  return { lines: [...head, `… [${cut} diff lines cut to fit the budget] …`, ...tail], cut };
}

function render(files: DiffFile[], cap: number, headerOnly: boolean): ShrinkResult {
  const out: string[] = [];
  const shrunk: ShrinkResult['shrunk'] = [];
  for (const f of files) {
    // Loops, not push(...): a hunk of 150,000 lines would overflow the call stack as spread arguments.
    for (const l of f.header) out.push(l);
    let linesCut = 0;
    let hunksCut = 0;
    for (const h of f.hunks) {
      out.push(h.header);
      if (headerOnly) {
        out.push(`… [hunk body of ${h.lines.length} lines cut to fit the budget] …`);
        linesCut += h.lines.length;
        hunksCut++;
        continue;
      }
      const c = cutHunk(h, cap);
      for (const l of c.lines) out.push(l);
      if (c.cut > 0) {
        linesCut += c.cut;
        hunksCut++;
      }
    }
    if (hunksCut > 0) shrunk.push({ path: f.path, lines_cut: linesCut, hunks_cut: hunksCut });
  }
  return { text: out.join('\n') + (out.length ? '\n' : ''), shrunk };
}

/**
 * Fits the files into `budgetChars`: every file keeps its header and hunk headers; the largest hunk bodies
 * are cut first (one cap for all hunks, the largest that fits); if even the headers do not fit, each file
 * becomes one summary line.
 */
export function shrinkDiff(files: DiffFile[], budgetChars: number): ShrinkResult {
  const full = render(files, Infinity, false);
  if (full.text.length <= budgetChars) return full;
  const bare = render(files, 0, true);
  if (bare.text.length <= budgetChars) {
    let lo = 0;
    let hi = files.reduce((m, f) => f.hunks.reduce((mm, h) => Math.max(mm, hunkSize(h)), m), 0);
    let best = bare;
    // Binary search on the per-hunk cap: the largest cap whose rendering fits.
    while (lo <= hi) {
      const mid = Math.floor((lo + hi) / 2);
      const r = mid < 80 ? bare : render(files, mid, false);
      if (r.text.length <= budgetChars) {
        best = r;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return best;
  }
  // Too many files even for headers: one line per file, so every changed file is still named.
  const lines = files.map((f) => `${f.path} (+${f.added} -${f.removed}, ${f.hunks.length} hunks; contents cut to fit the budget)`);
  const kept: string[] = [];
  let used = 0;
  for (const l of lines) {
    if (used + l.length + 1 > budgetChars - 80) break;
    kept.push(l);
    used += l.length + 1;
  }
  if (kept.length < lines.length) kept.push(`… and ${lines.length - kept.length} more changed files not named (budget)`);
  return {
    text: kept.join('\n') + '\n',
    shrunk: files.map((f) => ({ path: f.path, lines_cut: f.hunks.reduce((s, h) => s + h.lines.length, 0), hunks_cut: f.hunks.length })),
  };
}
