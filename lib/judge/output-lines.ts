// Chooses which lines of test or lint output the judge sees (the summary and the failures first), normalised so the
// same work reads the same on every run. Pure.
import { normalizeLines } from '../collector/parsers/normalize.js';

export interface SelectedOutput {
  text: string;
  linesKept: number;
  linesTotal: number;
  truncated: boolean;
}

const FAILURE =
  /\b(FAIL(ED|URE|S)?|ERROR|Error|Exception|Traceback|panicked|AssertionError|assert(ion)?|Expected|Received|expected|received|not ok|✗|✕|×|⨯)\b|^\s*(✗|✕|×|⨯|●)|\berror(\[\w+\])?:/;
const SUMMARY =
  /\b(Tests?:|Test Files|Test Suites:|test result:|Ran \d+ tests?|\d+ (passed|failed|passing|failing|pending|skipped|errors?|warnings?)|problems? \(|Found \d+ errors?)|^(OK|FAILED)\b|^=+ .* =+$/;

/**
 * Replaces timings and clock times in runner output with `#`: they tell the judge nothing about the code, and
 * they change on every run, so without this a re-collected run (same work, new timings) would miss the
 * content-keyed cache and be paid for again. Run on plain text (normalizeOutput strips the colours first: an
 * escape right before a number hides it from `\b`).
 */
export function maskTimings(text: string): string {
  return (
    text
      .replace(/\b(duration_ms:?\s+)\d+(?:\.\d+)?/g, '$1#')
      .replace(/(?<![\d:])\d{1,2}:\d{2}:\d{2}(?:\.\d+)?(?![\d:])/g, '#:#:#')
      // The date in front of a masked time (ISO stamps in logs): a re-collect the next day reads the same.
      .replace(/\b\d{4}-\d{2}-\d{2}([T ])#:#:#/g, '#-#-#$1#:#:#')
      .replace(/\b\d+m(\s?)\d+(?:\.\d+)?(\s?)s\b/g, '#m$1#$2s')
      // One unit for every duration: vitest prints 998ms one run and 1.02s the next.
      .replace(/\b\d+(?:\.\d+)?(\s?)(?:ms|s|sec|secs|seconds|ns|µs|us)\b/g, '#$1s')
      // go test reports a package it did not run again as (cached) where a fresh run prints its time.
      .replace(/^(ok\s+\S+\s+)\(cached\)/gm, '$1#s')
      // Rust names the panicking thread's id, new on every run.
      .replace(/^(thread '[^'\n]*' )\(\d+\)( panicked)/gm, '$1(#)$2')
  );
}

// cargo's status lines (the verb right-aligned to column 12) and go's module downloads: what the build cache held.
const CARGO_STATUS = /^ *(Compiling|Checking|Fresh|Downloaded|Downloading|Blocking|Updating|Locking|Adding|Unpacking) /;
const GO_DOWNLOAD = /^go: (downloading|finding|extracting) /;

/**
 * Drops the lines that say what a build had to fetch or compile: they depend on the cache (a warm one prints
 * none), not on the code. cargo replays a cached crate's warnings, so no warning is lost.
 */
export function dropBuildProgress(text: string): string {
  return text
    .split('\n')
    .filter((l) => {
      const m = CARGO_STATUS.exec(l);
      return !(m && m[0].length === 13) && !GO_DOWNLOAD.test(l);
    })
    .join('\n');
}

// A result line printed in completion order by a runner that runs in parallel: cargo's per test, vitest's per file.
const PARALLEL_RESULT = [/^test \S.* \.\.\. (ok|FAILED|ignored)\b/, /^ ?[✓✗×↓❯] \S+\.(test|spec)\.[cm]?[jt]sx? \(/];
const indent = (l: string): number => l.length - l.trimStart().length;

/**
 * Puts runs of consecutive result blocks (a result line and the lines indented under it) of the same kind in one
 * order: threads and workers finish in any order, the same results read the same. Run after the timings are masked.
 */
export function sortParallelResults(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const kind = PARALLEL_RESULT.findIndex((re) => re.test(lines[i]!));
    if (kind < 0) {
      out.push(lines[i++]!);
      continue;
    }
    const blocks: string[] = [];
    while (i < lines.length && PARALLEL_RESULT[kind]!.test(lines[i]!)) {
      const head = indent(lines[i]!);
      let j = i + 1;
      while (j < lines.length && lines[j]!.trim() !== '' && indent(lines[j]!) > head) j++;
      blocks.push(lines.slice(i, j).join('\n'));
      i = j;
    }
    out.push(...blocks.sort());
  }
  return out.join('\n');
}

// Temporary folders: the standard roots, plus the process's own (TMPDIR) given by the caller.
const TEMP_ROOTS = ['/tmp', '/var/tmp', '/private/tmp', '/dev/shm'];
const PATH_CHARS = String.raw`[^\s/:'"\x60()\[\]<>,;|]+`;
/** A made-up name: a digit (pytest-12, go-build123), a mkdtemp tail (-lfOYoP), pytest's per-user folder. */
const GENERATED = /\d|[-_.][A-Za-z0-9]{6}$|^pytest-of-/;
const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The placeholder every temporary path's random part becomes. */
export const TEMP_PLACEHOLDER = '<tmp>';

/**
 * Replaces the random part of temporary paths (the sealed checkout's folder, the report folder, a test's tmp_path)
 * with one placeholder: the folder right under a temporary root and the made-up names after it.
 * `/tmp/judgeloop-base-…-sealed-lfOYoP/tree/src/a.ts` reads `<tmp>/tree/src/a.ts` on every run.
 */
export function maskTempPaths(text: string, roots: readonly string[] = []): string {
  const all = [...new Set([...roots, ...TEMP_ROOTS].map((r) => r.replace(/\/+$/, '')).filter((r) => r.length > 1))];
  all.sort((a, b) => b.length - a.length);
  const re = new RegExp(String.raw`(?<![\w.~-])(?:${all.map(escapeRegExp).join('|')})((?:/${PATH_CHARS})+)`, 'g');
  return text.replace(re, (_m, rest: string) => {
    const segs = rest.slice(1).split('/');
    let i = 1;
    while (i < segs.length && GENERATED.test(segs[i]!)) i++;
    return [TEMP_PLACEHOLDER, ...segs.slice(i)].join('/');
  });
}

/** Terminal output as plain text: colours and cursor moves gone (they are tokens too), progress overwrites resolved. */
export const plainText = (text: string): string => normalizeLines(text).join('\n');

/**
 * Runner output as the judge reads it: plain text, no build progress, temporary paths and timings masked, parallel
 * results in one order. The same work run twice
 * normalises to the same text. `redact` runs on the plain text (a secret split by a colour code is whole there).
 */
export function normalizeOutput(
  text: string,
  tempRoots: readonly string[] = [],
  redact: (plain: string) => string = (t) => t,
): string {
  return sortParallelResults(maskTimings(maskTempPaths(dropBuildProgress(redact(plainText(text))), tempRoots)));
}

/**
 * Picks at most `maxLines` lines and `maxChars` characters: the summary (matching lines and the last lines),
 * then failure lines with a little context, then the rest from the top. Each block is labelled, in order.
 */
export function selectOutputLines(text: string, maxLines: number, maxChars: number): SelectedOutput {
  const lines = text.replace(/\r\n?/g, '\n').replace(/\n$/, '').split('\n');
  const total = text.trim() === '' ? 0 : lines.length;
  if (total === 0) return { text: '', linesKept: 0, linesTotal: 0, truncated: false };
  const fits = lines.length <= maxLines && text.length <= maxChars;
  if (fits) return { text: lines.join('\n'), linesKept: lines.length, linesTotal: total, truncated: false };

  const chosen = new Set<number>();
  let chars = 0;
  const budgetLeft = (extra: number): boolean => chosen.size < maxLines && chars + extra <= maxChars;
  const take = (i: number): boolean => {
    if (chosen.has(i)) return true;
    const len = Math.min(lines[i]!.length, 500) + 1;
    if (!budgetLeft(len + 40)) return false;
    chosen.add(i);
    chars += len;
    return true;
  };
  // 1. The summary: the last lines of the output, and any summary-looking line.
  const summary: number[] = [];
  for (let i = Math.max(0, lines.length - 15); i < lines.length; i++) summary.push(i);
  lines.forEach((l, i) => {
    if (SUMMARY.test(l)) summary.push(i);
  });
  for (const i of summary) if (!take(i)) break;
  // 2. Failures with two lines before and eight after (assertion diffs and stack tops).
  outer: for (let i = 0; i < lines.length; i++) {
    if (!FAILURE.test(lines[i]!)) continue;
    for (let j = Math.max(0, i - 2); j <= Math.min(lines.length - 1, i + 8); j++) if (!take(j)) break outer;
  }
  // 3. Whatever budget is left: the output from the top.
  for (let i = 0; i < lines.length; i++) if (!take(i)) break;

  const sorted = [...chosen].sort((a, b) => a - b);
  const out: string[] = [];
  let prev = -1;
  for (const i of sorted) {
    if (i !== prev + 1) out.push(`… [${i - prev - 1} lines not shown] …`);
    const l = lines[i]!;
    out.push(l.length > 500 ? l.slice(0, 500) + ' …[line cut]' : l);
    prev = i;
  }
  if (prev < lines.length - 1) out.push(`… [${lines.length - 1 - prev} lines not shown] …`);
  return { text: out.join('\n'), linesKept: sorted.length, linesTotal: total, truncated: true };
}
