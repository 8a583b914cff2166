// cargo test: one `test result:` line per test binary and one for the doc tests; all are summed.
import { flag, makeCounts } from './_counts.js';
import type { TestParser } from './_parser.js';
import type { CaseStatus, TestCase } from './types.js';

const RUNNING = /^running (\d+) tests?\s*$/;
const RESULT =
  /^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored; (\d+) measured; (\d+) filtered out/;
const TEST_LINE = /^test (.+?) \.\.\. (ok|FAILED|ignored)\b/;
// cargo's header before each test binary's block: `     Running unittests src/lib.rs (target/debug/deps/name-hash)`.
const HEADER =
  /^\s+(?:Running (?:unittests )?(\S+)(?: \((?:\S*\/)?([^/\s)]+?)(?:-[0-9a-f]{8,})?\))?|Doc-tests (\S+))\s*$/;
// rustc diagnostics; cargo's own `error: could not compile` / `error: test failed` lines are summaries, not diagnostics.
const DIAGNOSTIC =
  /^error(?:\[E\d+\])?: (?!could not compile|test failed|\d+ targets? failed|aborting due to|build failed|no such command)/;

interface Block {
  binary: string;
  announced: number;
  results: number[][];
  tests: Map<string, CaseStatus>;
}

const STATUS: Record<string, CaseStatus> = { ok: 'passed', FAILED: 'failed', ignored: 'skipped' };
const RANK: Record<CaseStatus, number> = { passed: 0, skipped: 1, xfail: 1, xpass: 2, failed: 3, error: 4 };

export const cargo: TestParser = {
  name: 'cargo',
  explain: {
    summary: /^test result: |^running \d+ tests?\s*$/,
    marks: /^test .+ \.\.\. FAILED|process didn't exit successfully|^error(?:\[E\d+\])?: /,
  },
  detect: (lines) =>
    lines.some((l) => RESULT.test(l) || /^error: could not compile `[^`]+` \((?:lib|bin|test|example|bench)/.test(l)),
  parse(lines) {
    const blocks: Block[] = [];
    let current: Block | null = null;
    let header: string | null = null;
    const anyHeader = lines.some((l) => HEADER.test(l));
    let diagnostics = 0,
      couldNotCompile = 0,
      stray = 0,
      signals = 0;
    for (const line of lines) {
      const h = HEADER.exec(line);
      if (h) {
        header = h[3] ? 'doc' : (h[2] ?? h[1] ?? 'tests');
        current = null;
        continue;
      }
      if (/^\s+process didn't exit successfully: .*\(signal: \d+/.test(line)) signals++;
      const r = RUNNING.exec(line);
      // A block starts only right after cargo's header: a `running N tests` line a test printed is not one.
      if (r) {
        if (header !== null || (!anyHeader && current === null)) {
          current = { binary: header ?? 'tests', announced: Number(r[1]), results: [], tests: new Map() };
          blocks.push(current);
          header = null;
        } else stray++;
        continue;
      }
      if (!current) {
        if (DIAGNOSTIC.test(line)) diagnostics++;
        if (/^error: could not compile /.test(line)) couldNotCompile++;
        continue;
      }
      const res = RESULT.exec(line);
      if (res) {
        current.results.push(res.slice(1, 5).map(Number));
        continue;
      }
      const t = TEST_LINE.exec(line);
      if (t) {
        const status = STATUS[t[2] as string] as CaseStatus;
        const before = current.tests.get(t[1] as string);
        if (before === undefined || RANK[status] > RANK[before]) current.tests.set(t[1] as string, status);
      }
      if (/^error: could not compile /.test(line)) {
        couldNotCompile++;
        current = null;
      }
    }
    if (blocks.length === 0 && couldNotCompile === 0) return null;
    let passed = 0,
      failed = 0,
      skipped = 0,
      crashErrors = 0;
    const notes: string[] = [];
    const disputes: string[] = [];
    let crashed: string | null = null;
    const cases: TestCase[] = [];
    for (const b of blocks) {
      for (const [name, status] of b.tests) cases.push({ id: `${b.binary}::${name}`, status });
      const tally = { ok: 0, failed: 0, ignored: 0 };
      for (const s of b.tests.values()) tally[s === 'passed' ? 'ok' : s === 'failed' ? 'failed' : 'ignored']++;
      // The runner's own line adds up to the count it announced and comes last in its block.
      const own = [...b.results]
        .reverse()
        .find((r) => (r[0] ?? 0) + (r[1] ?? 0) + (r[2] ?? 0) + (r[3] ?? 0) === b.announced);
      if (b.results.length > 1)
        disputes.push(`${b.binary}: ${b.results.length} "test result:" lines in one test binary's block`);
      if (own) {
        passed += own[0] ?? 0;
        failed += own[1] ?? 0;
        skipped += own[2] ?? 0;
        if ((own[1] ?? 0) < tally.failed)
          disputes.push(`${b.binary}: the result line counts ${own[1]} failed, the test lines show ${tally.failed}`);
        continue;
      }
      // No result line of its own: the test binary crashed (or the output was cut); count what the lines prove.
      passed += tally.ok;
      failed += tally.failed;
      skipped += tally.ignored;
      const missing = b.announced - tally.ok - tally.failed - tally.ignored;
      if (missing > 0) {
        crashErrors++;
        crashed = `a test binary (${b.binary}) announced ${b.announced} tests but ended without its result line: ${missing} unreported, counted as an error`;
      }
    }
    if (stray > 0)
      disputes.push(`${stray} "running N tests" line(s) outside cargo's per-binary structure (printed by a test?)`);
    if (signals > 0 && crashed === null) crashed = 'a test binary was killed by a signal';
    const errors = (diagnostics > 0 ? diagnostics : couldNotCompile > 0 ? 1 : 0) + crashErrors;
    if (couldNotCompile > 0) notes.push('compilation failed: tests of the targets that did not build never ran');
    const counts = makeCounts('cargo', { passed, failed, skipped, errors, notes });
    if (cases.length > 0) counts.cases = cases;
    return flag(counts, {
      disputed: disputes.length ? disputes.join('; ') : null,
      crashed,
      noTests: blocks.length > 0 && counts.total === 0 && errors === 0 ? 'cargo ran no tests' : null,
    });
  },
};
