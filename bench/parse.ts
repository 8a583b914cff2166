// Parse time of a real 20,000-test `pytest -v` output and read time of the JUnit report of the same run
// (generated once with real pytest, cached in .bench-tmp/).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median } from '../lib/stats/stats.js';
import { parseTestOutput } from '../lib/collector/parsers/index.js';
import { readJunit } from '../lib/collector/parsers/reports.js';

const TESTS = 20_000;
const RUNS = 9;
const TARGET_MS = 100;

function capture(dir: string): { text: string; xml: string } {
  const cached = join(dir, `pytest-v-${TESTS}.txt`);
  const report = join(dir, `pytest-${TESTS}.xml`);
  if (existsSync(cached) && existsSync(report))
    return { text: readFileSync(cached, 'utf8'), xml: readFileSync(report, 'utf8') };
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'test_bench.py'),
    `import pytest\n@pytest.mark.parametrize('i', range(${TESTS}))\ndef test_case(i): assert i >= 0\n`,
  );
  const r = spawnSync(
    'python3',
    ['-m', 'pytest', '-v', '-p', 'no:cacheprovider', `--junitxml=${report}`, 'test_bench.py'],
    { cwd: dir, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  if (r.error || !/\b\d+ passed\b/.test(r.stdout))
    throw new Error(`pytest did not run: ${r.error?.message ?? r.stderr.slice(0, 500)}`);
  writeFileSync(cached, r.stdout + r.stderr);
  return { text: r.stdout + r.stderr, xml: readFileSync(report, 'utf8') };
}

function medianMs(f: () => unknown): number {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const s = performance.now();
    f();
    times.push(performance.now() - s);
  }
  return median(times) ?? Number.NaN;
}

export function main(): number {
  const dir = fileURLToPath(new URL('../.bench-tmp/', import.meta.url));
  let text: string, xml: string;
  try {
    ({ text, xml } = capture(dir));
  } catch (err) {
    process.stderr.write(`bench/parse: ${(err as Error).message}\n`);
    return 1;
  }
  const times: number[] = [];
  let counts = null;
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    counts = parseTestOutput(text);
    times.push(performance.now() - start);
  }
  const parseMs = median(times) ?? Number.NaN;
  process.stdout.write(
    `parse pytest -v, ${TESTS} tests (${(text.length / 1e6).toFixed(1)} MB): median ${parseMs.toFixed(1)} ms over ${RUNS} runs (target < ${TARGET_MS} ms) ${parseMs < TARGET_MS ? 'OK' : 'SLOW'}\n`,
  );
  const { cases, ...rest } = counts ?? { cases: undefined };
  process.stdout.write(`counts: ${JSON.stringify(rest)}, ${cases?.length ?? 0} per-test cases\n`);
  let report = null;
  const junit = medianMs(() => {
    report = readJunit(xml, 'pytest');
  });
  const r = report as ReturnType<typeof readJunit>;
  process.stdout.write(
    `read the JUnit report of the same run, ${TESTS} tests (${(xml.length / 1e6).toFixed(1)} MB): median ${junit.toFixed(1)} ms (target < ${TARGET_MS} ms) ${junit < TARGET_MS ? 'OK' : 'SLOW'}; ${r?.passed} passed, ${r?.cases?.length} cases\n`,
  );
  // The summary path is the common one; also time the per-line fallback by removing the summary line.
  const noSummary = text.replace(/^=+ \d+ passed in .*$/m, '');
  const fb: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const s = performance.now();
    parseTestOutput(noSummary);
    fb.push(performance.now() - s);
  }
  process.stdout.write(
    `without summary line (per-test fallback): median ${(median(fb) ?? Number.NaN).toFixed(1)} ms\n`,
  );
  return parseMs < TARGET_MS && junit < TARGET_MS ? 0 : 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = main();
