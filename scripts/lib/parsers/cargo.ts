// cargo test: one `test result:` line per test binary and one for the doc tests; all are summed.
import { makeCounts } from './_counts.js';
import type { TestParser } from './_parser.js';

const RUNNING = /^running (\d+) tests?\s*$/;
const RESULT = /^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored; (\d+) measured; (\d+) filtered out/;
const TEST_LINE = /^test (.+?) \.\.\. (ok|FAILED|ignored)\b/;
// rustc diagnostics; cargo's own `error: could not compile` / `error: test failed` lines are summaries, not diagnostics.
const DIAGNOSTIC = /^error(?:\[E\d+\])?: (?!could not compile|test failed|\d+ targets? failed|aborting due to|build failed|no such command)/;

interface Block { announced: number; results: number[][]; lines: { ok: number; failed: number; ignored: number } }

export const cargo: TestParser = {
  name: 'cargo',
  detect: (lines) => lines.some((l) => RESULT.test(l) || /^error: could not compile `[^`]+` \((?:lib|bin|test|example|bench)/.test(l)),
  parse(lines) {
    const blocks: Block[] = [];
    let current: Block | null = null;
    let diagnostics = 0, couldNotCompile = 0;
    for (const line of lines) {
      const r = RUNNING.exec(line);
      if (r) { current = { announced: Number(r[1]), results: [], lines: { ok: 0, failed: 0, ignored: 0 } }; blocks.push(current); continue; }
      if (!current) {
        if (DIAGNOSTIC.test(line)) diagnostics++;
        if (/^error: could not compile /.test(line)) couldNotCompile++;
        continue;
      }
      const res = RESULT.exec(line);
      if (res) { current.results.push(res.slice(1, 5).map(Number)); continue; }
      const t = TEST_LINE.exec(line);
      if (t) current.lines[t[2] === 'ok' ? 'ok' : t[2] === 'FAILED' ? 'failed' : 'ignored']++;
      if (/^\s+(?:Running|Doc-tests) /.test(line)) current = null;
      else if (/^error: could not compile /.test(line)) { couldNotCompile++; current = null; }
    }
    if (blocks.length === 0 && couldNotCompile === 0) return null;
    let passed = 0, failed = 0, skipped = 0;
    const notes: string[] = [];
    for (const b of blocks) {
      // The runner's own line adds up to the count it announced; a test printing "test result: ..." rarely does.
      const own = [...b.results].reverse().find((r) => (r[0] ?? 0) + (r[1] ?? 0) + (r[2] ?? 0) + (r[3] ?? 0) === b.announced);
      if (own) {
        passed += own[0] ?? 0; failed += own[1] ?? 0; skipped += own[2] ?? 0;
        continue;
      }
      // No result line of its own: the test binary crashed (or the output was cut); count what the lines prove.
      passed += b.lines.ok; failed += b.lines.failed; skipped += b.lines.ignored;
      const missing = b.announced - b.lines.ok - b.lines.failed - b.lines.ignored;
      if (missing > 0) {
        failed++;
        notes.push(`a test binary announced ${b.announced} tests but ended without its result line: ${missing} unreported, 1 counted as failed (crash)`);
      }
    }
    const errors = diagnostics > 0 ? diagnostics : couldNotCompile > 0 ? 1 : 0;
    if (couldNotCompile > 0) notes.push('compilation failed: tests of the targets that did not build never ran');
    return makeCounts('cargo', { passed, failed, skipped, errors, notes });
  },
};
