// Chooses which lines of test or lint output the judge sees: the summary and the failures first. Pure.

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
 * content-keyed cache and be paid for again.
 */
export function maskTimings(text: string): string {
  return text
    .replace(/\b(duration_ms:?\s+)\d+(?:\.\d+)?/g, '$1#')
    .replace(/\b\d{1,2}:\d{2}:\d{2}(?:\.\d+)?\b/g, '#:#:#')
    .replace(/\b\d+(?:\.\d+)?(\s?)(ms|s|sec|secs|seconds)\b/g, '#$1$2');
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
