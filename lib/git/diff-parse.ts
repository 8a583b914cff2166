// The one unified-diff parser (pure): `git diff` text → per file its paths, kind, header, hunks and the added and
// removed lines with their line numbers. Used by the judge (context, shrinking) and the race (findings, metrics).

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

/** A side of a ---/+++ line: the path without its a/ or b/, or null for /dev/null. */
function sidePath(raw: string): string | null {
  const p = unquoteGitPath(raw);
  return p === '/dev/null' ? null : stripSide(p);
}

/** The a- and b-side paths of a `diff --git` line, quoted or not. */
function pathsOfDiffLine(line: string): { oldPath: string | null; path: string } {
  const quoted = /^diff --git ("(?:[^"\\]|\\.)*"|\S+) ("(?:[^"\\]|\\.)*"|\S+)$/.exec(line);
  if (quoted && (quoted[1]!.startsWith('"') || quoted[2]!.startsWith('"')))
    return { oldPath: stripSide(unquoteGitPath(quoted[1]!)), path: stripSide(unquoteGitPath(quoted[2]!)) };
  const plain = /^diff --git a\/(.*) b\/(.*)$/.exec(line);
  return plain ? { oldPath: plain[1]!, path: plain[2]! } : { oldPath: null, path: '' };
}

interface NumberedLine {
  line: number;
  text: string;
}

export interface Hunk {
  header: string;
  lines: string[];
}

export interface FilePatch {
  /** The path after the change (the b side; the old path for a deleted file). */
  path: string;
  /** The path before the change; null when the diff names /dev/null (a new file). */
  oldPath: string | null;
  /** The file is new (/dev/null before). */
  created: boolean;
  /** The file was deleted (/dev/null after). */
  deleted: boolean;
  binary: boolean;
  /** Header lines a reviewer reads (diff --git, rename, new/deleted file, ---/+++; no index line). */
  header: string[];
  hunks: Hunk[];
  /** Added lines with their line number in the new file. */
  added: NumberedLine[];
  /** Removed lines' text. */
  removed: string[];
  /** The removed lines with their line number in the old file. */
  removedLines: NumberedLine[];
  /** Bytes of this file's part of the diff. */
  bytes: number;
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/** Splits `git diff` output (a/ b/ prefixes) into files; text before the first `diff --git` is ignored. */
export function parseUnifiedDiff(text: string): FilePatch[] {
  const files: FilePatch[] = [];
  const chunks = text.split(/^(?=diff --git )/m).filter((c) => c.startsWith('diff --git '));
  for (const chunk of chunks) {
    const lines = chunk.replace(/\n$/, '').split('\n');
    const f: FilePatch = {
      ...pathsOfDiffLine(lines[0]!),
      created: false,
      deleted: false,
      binary: false,
      header: [],
      hunks: [],
      added: [],
      removed: [],
      removedLines: [],
      bytes: Buffer.byteLength(chunk),
    };
    let oldLine = 0;
    let newLine = 0;
    for (const line of lines) {
      const hunk = f.hunks[f.hunks.length - 1];
      if (line.startsWith('@@')) {
        f.hunks.push({ header: line, lines: [] });
        const h = HUNK.exec(line);
        oldLine = h ? Number(h[1]) : 0;
        newLine = h ? Number(h[2]) : 0;
        continue;
      }
      if (hunk) {
        hunk.lines.push(line);
        if (line.startsWith('+')) f.added.push({ line: newLine++, text: line.slice(1) });
        else if (line.startsWith('-')) {
          f.removed.push(line.slice(1));
          f.removedLines.push({ line: oldLine++, text: line.slice(1) });
        } else if (line.startsWith(' ')) {
          newLine++;
          oldLine++;
        }
        continue;
      }
      if (line.startsWith('new file mode')) f.created = true;
      else if (line.startsWith('deleted file mode')) f.deleted = true;
      else if (line.startsWith('+++ ')) f.path = sidePath(line.slice(4)) ?? f.path;
      else if (line.startsWith('--- ')) f.oldPath = sidePath(line.slice(4));
      else if (line.startsWith('rename from ')) f.oldPath = unquoteGitPath(line.slice(12));
      else if (line.startsWith('rename to ')) f.path = unquoteGitPath(line.slice(10));
      if (/^Binary files .* differ$/.test(line) || line === 'GIT binary patch') f.binary = true;
      // index lines carry no meaning for a reviewer; everything else of the header stays.
      if (!line.startsWith('index ') && !f.binary) f.header.push(line);
      else if (f.binary && f.header.length === 0) f.header.push(lines[0]!);
    }
    files.push(f);
  }
  return files;
}

/**
 * A new file's text, or a deleted one's, as its patch carries it whole (one hunk from or to line 0, every line `+` or
 * `-`, git's `\ No newline at end of file` marks read); undefined when the patch does not hold the whole text.
 */
export function wholeText(f: FilePatch): string | undefined {
  // A submodule's patch is `Subproject commit <oid>`: no blob.
  if (f.binary || f.created === f.deleted || f.header.some((h) => / file mode 160000$/.test(h))) return undefined;
  if (!f.hunks.length) return f.header.some((h) => h.startsWith('Binary')) ? undefined : '';
  const h = f.hunks.length === 1 ? /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(f.hunks[0]!.header) : null;
  if (!h) return undefined;
  const [from, fromN, to, toN] = [h[1], h[2] ?? '1', h[3], h[4] ?? '1'].map(Number) as [number, number, number, number];
  const sign = f.created ? '+' : '-';
  const expected = f.created ? toN : fromN;
  if ((f.created ? from !== 0 || fromN !== 0 || to !== 1 : to !== 0 || toN !== 0 || from !== 1) || !expected)
    return undefined;
  let text = '';
  let lines = 0;
  for (const line of f.hunks[0]!.lines) {
    if (line.startsWith(sign)) {
      text += `${line.slice(1)}\n`;
      lines++;
    } else if (line.startsWith('\\') && lines === expected) text = text.slice(0, -1);
    else return undefined;
  }
  return lines === expected ? text : undefined;
}
