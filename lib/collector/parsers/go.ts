// go test: plain (`ok`/`FAIL` per package, failures only), -v (`=== RUN` / `--- PASS:`), and -json (test2json events).
import { flag, makeCounts } from './_counts.js';
import type { TestParser } from './_parser.js';
import type { CaseStatus, TestCase, TestCounts } from './types.js';
import { plural } from '../../base/plural.js';

const PACKAGE = /^(ok|FAIL|\?)\s+(\S+)\s+(.*)$/;
const RESULT = /^\s*--- (PASS|FAIL|SKIP): (\S+) \(/;
const RUN = /^=== RUN\s+(\S+)/;
const BROKEN_PACKAGE = /\[(?:build failed|setup failed)\]/;
const CRASH = /^(?:panic: |fatal error: |SIG[A-Z]+: |signal: )/;

type Outcome = 'pass' | 'fail' | 'skip';
const STATUS: Record<Outcome, CaseStatus> = { pass: 'passed', fail: 'failed', skip: 'skipped' };

interface Leaves {
  passed: number;
  failed: number;
  skipped: number;
  errors: number;
  cases: TestCase[];
  unfinished: number;
}

/**
 * Counts leaf tests only: a parent whose subtests are reported is a group, not one more test
 * (a failing subtest makes its parent fail too, which would count the same failure twice).
 * results: package → test name → outcome (null: started, no result).
 */
function countLeaves(results: Map<string, Map<string, Outcome | null>>, crashed: boolean): Leaves {
  const out: Leaves = { passed: 0, failed: 0, skipped: 0, errors: 0, cases: [], unfinished: 0 };
  for (const [pkg, tests] of results) {
    const parents = new Set<string>();
    for (const name of tests.keys()) {
      for (let i = name.indexOf('/'); i >= 0; i = name.indexOf('/', i + 1)) parents.add(name.slice(0, i));
    }
    for (const [name, outcome] of tests) {
      if (parents.has(name)) continue;
      const id = pkg ? `${pkg}::${name}` : name;
      if (outcome === null) {
        out.unfinished++;
        // The binary died under it (panic elsewhere, timeout, signal): the process crashed, an error, not a failed assertion.
        if (crashed) {
          out.errors++;
          out.cases.push({ id, status: 'error', excerpt: 'running when the test binary crashed or timed out' });
        }
        continue;
      }
      out[outcome === 'pass' ? 'passed' : outcome === 'fail' ? 'failed' : 'skipped']++;
      out.cases.push({ id, status: STATUS[outcome] });
    }
  }
  return out;
}

function leavesCounts(l: Leaves, errors: number, crashed: boolean, notes: string[]): TestCounts {
  if (l.unfinished > 0) {
    notes.push(
      crashed
        ? `${plural(l.unfinished, 'test')} running when the test binary panicked or timed out: counted as errors`
        : `${plural(l.unfinished, 'test')} started without a reported result (output cut?): not counted`,
    );
  }
  const counts = makeCounts('go', {
    passed: l.passed,
    failed: l.failed,
    skipped: l.skipped,
    errors: errors + l.errors,
    notes,
  });
  if (l.cases.length > 0) counts.cases = l.cases;
  return counts;
}

function parseJson(lines: readonly string[]): TestCounts | null {
  const results = new Map<string, Map<string, Outcome | null>>();
  const pkgOutcome = new Map<string, string[]>();
  let events = 0,
    errors = 0,
    crashed = false,
    nested = 0,
    twice = 0;
  const active = new Set<string>();
  const notes: string[] = [];
  for (const line of lines) {
    if (!line.startsWith('{')) {
      if (PACKAGE.test(line) && BROKEN_PACKAGE.test(line)) errors++;
      continue;
    }
    let ev: { Action?: string; Package?: string; Test?: string; Output?: string };
    try {
      ev = JSON.parse(line) as typeof ev;
    } catch {
      continue;
    }
    events++;
    const pkg = ev.Package ?? '';
    if (ev.Action === 'output' && typeof ev.Output === 'string') {
      if (CRASH.test(ev.Output)) crashed = true;
      if (!ev.Test && /^FAIL\s/.test(ev.Output) && BROKEN_PACKAGE.test(ev.Output)) errors++;
      continue;
    }
    if (!ev.Test) {
      if (ev.Action === 'pass' || ev.Action === 'fail') {
        pkgOutcome.set(pkg, [...(pkgOutcome.get(pkg) ?? []), ev.Action]);
        for (const k of [...active]) if (k.startsWith(`${pkg} `)) active.delete(k);
      }
      continue;
    }
    const tests = results.get(pkg) ?? new Map<string, Outcome | null>();
    results.set(pkg, tests);
    const top = !ev.Test.includes('/');
    const key = `${pkg} ${ev.Test}`;
    if (top && (ev.Action === 'pause' || ev.Action === 'pass' || ev.Action === 'fail' || ev.Action === 'skip'))
      active.delete(key);
    if (top && ev.Action === 'cont') active.add(key);
    if (ev.Action === 'run') {
      // A top-level test starting while another runs unpaused: a test printed "=== RUN" (test2json believed it).
      if (top && [...active].some((k) => k.startsWith(`${pkg} `))) nested++;
      if (top) active.add(key);
      if (!tests.has(ev.Test)) tests.set(ev.Test, null);
    }
    // test2json turns a test's own "--- PASS: TestFake" output into a pass event; a real test always had a run event first.
    // A test seen failing stays failed (a printed "--- PASS:" line cannot undo it).
    else if ((ev.Action === 'pass' || ev.Action === 'fail' || ev.Action === 'skip') && tests.has(ev.Test)) {
      // Two results for one test: one was printed by the test itself.
      if (tests.get(ev.Test) !== null) twice++;
      if (tests.get(ev.Test) !== 'fail') tests.set(ev.Test, ev.Action);
    }
  }
  if (events === 0) return null;
  const leaves = countLeaves(results, crashed);
  // `?  pkg [no test files]` is a package skip event; with no test event and no package run, nothing was collected.
  const noTests = results.size === 0 && pkgOutcome.size === 0 && errors === 0 ? 'no package had test files' : null;
  const disputes: string[] = [];
  if (nested > 0)
    disputes.push(
      `${plural(nested, 'test')} started while another top-level test was running (printed "=== RUN" lines?)`,
    );
  if (twice > 0) disputes.push(`${plural(twice, 'test')} reported two results (a test printed a "--- PASS:" line?)`);
  let crashNote: string | null = crashed ? 'a test binary panicked, crashed or timed out' : null;
  for (const [pkg, outcomes] of pkgOutcome) {
    const failedLeaves = leaves.cases.filter(
      (c) => c.id.startsWith(`${pkg}::`) && (c.status === 'failed' || c.status === 'error'),
    ).length;
    if (outcomes.includes('fail') && failedLeaves === 0 && errors === 0) {
      leaves.errors++;
      crashNote = `package ${pkg} failed with no failed test reported (the binary died): counted as an error`;
    }
    if (new Set(outcomes).size > 1) disputes.push(`package ${pkg} reported both pass and fail`);
  }
  return flag(leavesCounts(leaves, errors, crashed, notes), {
    disputed: disputes.join('; ') || null,
    crashed: crashNote,
    noTests,
  });
}

/**
 * -v: go announces every test with `=== RUN` before its result. Not decided by the first line (TestMain can print a
 * fake `--- FAIL:` or `ok` line before any test; a package without test files prints `?` first) but by the result
 * lines: -v unless results without a RUN outnumber announced ones (a plain run where a test printed RUN lines).
 */
function isVerbose(lines: readonly string[]): boolean {
  const ran = new Set<string>();
  let announced = 0,
    unannounced = 0;
  for (const l of lines) {
    const run = RUN.exec(l);
    if (run) ran.add(run[1] as string);
    const r = run ? null : RESULT.exec(l);
    if (r) ran.has(r[2] as string) ? announced++ : unannounced++;
  }
  return ran.size > 0 && (unannounced === 0 || announced > unannounced);
}

function parseText(lines: readonly string[]): TestCounts | null {
  const verbose = isVerbose(lines);
  // Tests come before their package's final `ok`/`FAIL` line: collected per package as that line arrives.
  const results = new Map<string, Map<string, Outcome | null>>();
  let current = new Map<string, Outcome | null>();
  let errors = 0,
    packages = 0,
    timeouts = 0,
    crashedPackages = 0,
    failLinesSince = 0,
    crashSince = false;
  const finals = new Map<string, string[]>();
  const notes: string[] = [];
  const finalLine = (l: string): RegExpExecArray | null => {
    const m = PACKAGE.exec(l);
    return m && /^(?:\(cached\)|[\d.]+s|\[)/.test(m[3] as string) ? m : null;
  };
  // go prints a package's final line after its test binary exits: the last one per package is the real one.
  const lastFinal = new Map<string, number>();
  lines.forEach((l, i) => {
    const m = finalLine(l);
    if (m) lastFinal.set(m[2] as string, i);
  });
  let nested = 0,
    twice = 0,
    unannounced = 0,
    running: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const pkg = finalLine(line);
    const pendingTest = verbose && [...current.values()].includes(null);
    if (pkg && (lastFinal.get(pkg[2] as string) !== i || (pendingTest && !crashSince))) {
      finals.set(pkg[2] as string, [...(finals.get(pkg[2] as string) ?? []), pkg[1] as string]);
      if (lastFinal.get(pkg[2] as string) === i) finals.set(`${pkg[2]} (printed while a test ran)`, ['', '']);
      continue;
    }
    if (pkg) {
      packages++;
      const name = pkg[2] as string;
      finals.set(name, [...(finals.get(name) ?? []), pkg[1] as string]);
      if (BROKEN_PACKAGE.test(line)) errors++;
      else if (pkg[1] === 'FAIL' && failLinesSince === 0 && (crashSince || !verbose)) crashedPackages++;
      if (current.size > 0) results.set(name, new Map([...(results.get(name) ?? []), ...current]));
      current = new Map();
      failLinesSince = 0;
      crashSince = false;
      continue;
    }
    if (CRASH.test(line)) crashSince = true;
    if (/^panic: test timed out after /.test(line)) timeouts++;
    const run = RUN.exec(line);
    if (run) {
      const name = run[1] as string;
      if (
        !name.includes('/') &&
        running !== null &&
        current.get(running) === null &&
        !line.startsWith('=== RUN   ' + running + '/')
      )
        nested++;
      if (!name.includes('/')) running = name;
      if (!current.has(name)) current.set(name, null);
      continue;
    }
    const r = RESULT.exec(line);
    if (!r) continue;
    const name = r[2] as string;
    if (r[1] === 'FAIL') failLinesSince++;
    // Only tests go announced with `=== RUN` (with -v): a test printing "--- PASS: TestFake" is not one. A failure
    // without RUN still counts (printed by a test, or a plain run with a printed RUN line): a failure is never dropped.
    if (verbose && !current.has(name)) {
      if (r[1] === 'FAIL') {
        unannounced++;
        current.set(name, 'fail');
      }
      continue;
    }
    if (current.get(name) !== null && current.get(name) !== undefined) twice++;
    if (current.get(name) === 'fail') continue;
    current.set(name, r[1] === 'PASS' ? 'pass' : r[1] === 'FAIL' ? 'fail' : 'skip');
  }
  if (current.size > 0) results.set('', current);
  if (packages === 0 && results.size === 0) return null;
  const crashed = timeouts > 0 || lines.some((l) => CRASH.test(l));
  const disputes = [...finals]
    .filter(([, v]) => v.length > 1)
    .map(([k, v]) => `package ${k} has ${v.length} final lines (${v.join(', ')}): a test printed one`);
  if (nested > 0)
    disputes.push(
      `${plural(nested, 'test')} started while another top-level test was running (printed "=== RUN" lines?)`,
    );
  if (twice > 0) disputes.push(`${plural(twice, 'test')} reported two results (a test printed a "--- PASS:" line?)`);
  if (!verbose && lines.some((l) => RUN.test(l)))
    disputes.push('"=== RUN" lines in a plain go test run (printed by a test?): read as plain output');
  if (unannounced > 0)
    disputes.push(`${unannounced} "--- FAIL:" line(s) for a test go never started (printed?): counted as failed`);
  const disputed = disputes.join('; ') || null;
  const crashNote = crashed ? 'a test binary panicked, crashed or timed out' : null;
  if (verbose)
    return flag(leavesCounts(countLeaves(results, crashed), errors, crashed, notes), { disputed, crashed: crashNote });
  const leaves = countLeaves(results, false);
  if (packages > 0 && !lines.some((l) => /^(?:ok|FAIL)\s/.test(l))) {
    return flag(makeCounts('go', { passed: 0, errors, notes: ['no package had test files'] }), {
      noTests: 'no package had test files',
    });
  }
  notes.push('plain go test does not list passing or skipped tests: passed and total unknown, skipped not shown');
  let crashErrors = 0;
  if (timeouts > 0) {
    crashErrors += timeouts;
    notes.push(
      `${timeouts} test binary timeout(s): counted as an error each (the test that was running never finished)`,
    );
  }
  const signalled = Math.max(0, crashedPackages - timeouts);
  if (signalled > 0) {
    crashErrors += signalled;
    notes.push(
      `${plural(signalled, 'package')} failed with no failed test listed (the binary died): counted as an error each`,
    );
  }
  const counts = makeCounts('go', {
    passed: null,
    failed: leaves.failed,
    skipped: 0,
    errors: errors + crashErrors,
    notes,
  });
  if (leaves.cases.length > 0) counts.cases = leaves.cases.filter((c) => c.status !== 'passed');
  return flag(counts, { disputed, crashed: crashNote });
}

export const go: TestParser = {
  name: 'go',
  explain: {
    summary: /^(?:ok|FAIL)\s+\S+\s+(?:\(cached\)|[\d.]+s|\[)|"Action":"(?:pass|fail)","Package":"[^"]+","Elapsed"/,
    marks: /^\s*--- FAIL: |"Action":"fail","Package":"[^"]+","Test"|^panic: |^SIG[A-Z]+: /,
  },
  detect: (lines) =>
    lines.some((l) => (PACKAGE.test(l) && /\t/.test(l)) || RUN.test(l) || /^\{"Time":"[^"]+","Action":"/.test(l)),
  parse(lines) {
    const json = lines.some((l) => /^\{"(?:Time|Action)":/.test(l));
    return json ? parseJson(lines) : parseText(lines);
  },
};
