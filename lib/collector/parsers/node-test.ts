// node:test, spec (`ℹ tests 11`) and TAP (`# tests 11`) reporters: read the runner's closing block.
import { favour, flag, makeCounts, pickSummary } from './_counts.js';
import type { TestParser } from './_parser.js';
import { plural } from '../../base/plural.js';

const KEY = /^(?:ℹ|#) (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) (\d+(?:\.\d+)?)\s*$/;
// A failure reported for a whole test file (node names it by its path) rather than for a test in it.
const FILE_FAILURE = /^\s*(?:✖|not ok \d+ -) (\/\S+\.(?:[cm]?[jt]s|tsx|jsx))(?: \([\d.]+m?s\))?\s*$/;
const NOT_FOUND = /^Could not find '[^']+'\s*$/;
const LOAD_ERROR =
  /ERR_MODULE_NOT_FOUND|Cannot find module|SyntaxError|ERR_REQUIRE_ESM|ERR_UNKNOWN_FILE_EXTENSION|does not provide an export named/;

/** Every closing block (`tests N` … with pass and fail), first to last: a test can print one too. */
function closingBlocks(lines: readonly string[]): Array<Map<string, number>> {
  const out: Array<Map<string, number>> = [];
  for (let i = 0; i < lines.length; i++) {
    const m = KEY.exec(lines[i] as string);
    if (m?.[1] !== 'tests') continue;
    const map = new Map<string, number>();
    for (let j = i; j < lines.length && j < i + 10; j++) {
      const k = KEY.exec(lines[j] as string);
      if (!k) break;
      map.set(k[1] as string, Number(k[2]));
    }
    // A test printing "ℹ tests 99" is not followed by node's full block; the real one always has pass and fail.
    if (map.has('pass') && map.has('fail')) out.push(map);
  }
  return out;
}

function closingBlock(lines: readonly string[]): Map<string, number> | null {
  const all = closingBlocks(lines);
  return all.length ? (all[all.length - 1] as Map<string, number>) : null;
}

/** Files whose failure is a module that could not load: errors, not failed tests. */
function loadFailures(lines: readonly string[]): { load: number; files: number; died: string[] } {
  const seen = new Set<string>();
  const died: string[] = [];
  let count = 0;
  let lastResult = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const m = FILE_FAILURE.exec(line);
    if (m && !seen.has(m[1] as string)) {
      seen.add(m[1] as string);
      let load = false;
      for (let j = lastResult + 1; j < i && !load; j++) load = LOAD_ERROR.test(lines[j] as string);
      if (load) count++;
      else died.push(m[1] as string);
    }
    if (/^\s*(?:✔|✖|﹣|ok \d+|not ok \d+)/.test(line)) lastResult = i;
  }
  return { load: count, files: seen.size, died };
}

export const nodeTest: TestParser = {
  name: 'node-test',
  explain: {
    summary: /^(?:ℹ|#) (?:tests|pass|fail|cancelled) \d+\s*$|^Could not find/,
    marks: /^\s*(?:✖ |not ok \d+ )/,
  },
  detect: (lines) =>
    (closingBlock(lines) !== null && lines.some((l) => /^(?:ℹ|#) suites \d+\s*$/.test(l))) ||
    NOT_FOUND.test(lines[0] ?? ''),
  parse(lines) {
    if (closingBlock(lines) === null && lines.some((l) => NOT_FOUND.test(l))) {
      return flag(makeCounts('node-test', { passed: 0 }), { noTests: 'node --test found no test file' });
    }
    const blocks = closingBlocks(lines);
    // Failed tests are marked ✖ (spec) or `not ok` (TAP): the real block counts a failure when any is shown.
    const marked = lines.some((l) => /^\s*(?:✖ |not ok \d+ )/.test(l));
    const { chosen: block, disputed } = pickSummary(
      blocks,
      (b) => !marked || (b.get('fail') ?? 0) + (b.get('cancelled') ?? 0) > 0,
      'node:test closing block',
      (b) => favour(b.get('pass') ?? 0, (b.get('fail') ?? 0) + (b.get('cancelled') ?? 0)),
    );
    if (!block) return null;
    const notes: string[] = [];
    const { load: loadErrors, files, died: deadFiles } = loadFailures(lines);
    // node counts a file that failed to load, or whose process died, as one failed test: both are errors here.
    const died = files - loadErrors;
    const fail = (block.get('fail') ?? 0) - loadErrors - died;
    // A file reported as one passing test ran no test that reported (process.exit(0) in a test, or an empty file).
    const whole = lines.filter((l) => /^\s*(?:✔|ok \d+ -) \/\S+\.(?:[cm]?[jt]s|tsx|jsx)(?: \(|\s*$)/.test(l)).length;
    if (whole > 0)
      notes.push(`${plural(whole, 'test file')} passed as a whole without reporting a test (exited early, or empty)`);
    if (loadErrors > 0)
      notes.push(`${plural(loadErrors, 'test file')} failed to load: counted as errors, not failed tests`);
    const cancelled = block.get('cancelled') ?? 0;
    if (cancelled > 0) notes.push(`${plural(cancelled, 'cancelled test')} (timeouts) counted as failed`);
    const counts = makeCounts('node-test', {
      passed: block.get('pass') ?? 0,
      failed: Math.max(0, fail) + cancelled,
      skipped: (block.get('skipped') ?? 0) + (block.get('todo') ?? 0),
      errors: loadErrors + died,
      notes,
    });
    return flag(counts, {
      disputed,
      crashed:
        died > 0
          ? `${died} test file process(es) died mid-run, its tests unreported: counted as an error each (${deadFiles.join(', ')})`
          : null,
      noTests: (block.get('tests') ?? 0) === 0 && loadErrors === 0 ? 'node --test ran no tests' : null,
    });
  },
};
