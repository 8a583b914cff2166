// Which machine-readable report to ask a recognised test runner for, and how (pure: no file is touched here).
import type { ReportFormat } from './reports.js';
import { nodeWitness } from './node-witness.js';
import { WITNESS_MAIN, WITNESS_MODULE, WITNESS_PY } from './pytest-witness.js';

export interface ReportPlan {
  runner: string;
  format: ReportFormat;
  /** Absolute path the runner is asked to write (inside the fresh report directory). */
  file: string;
  /** The command to run (the configured one, with report flags added where needed). */
  command: string;
  /** Extra environment for the command. */
  env: Record<string, string>;
  /** pytest, node --test: our witness, written into the report folder; `env` is the command's with it loaded. */
  witness?: { files: Record<string, string>; env: Record<string, string> };
}

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
// The runner as the command's first word (after env assignments and npx/pnpm/yarn exec wrappers).
const LEAD = String.raw`^\s*(?:\w+=\S*\s+)*(?:(?:npx|pnpm(?:\s+exec)?|yarn|bunx)\s+)?`;

/** The report the config names (collector.test_report): its args appended, its env added, `{file}` filled in. */
export interface ReportOverride {
  format: ReportFormat;
  file?: string;
  args?: string;
  env?: Record<string, string>;
}

export function planConfiguredReport(
  command: string,
  dir: string,
  named: string | null,
  o: ReportOverride,
): ReportPlan {
  const file = `${dir}/${o.file ?? (o.format === 'junit' ? 'report.xml' : 'report.json')}`;
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(o.env ?? {})) env[k] = v.replaceAll('{file}', file);
  const runner =
    named ?? { junit: 'junit', 'jest-json': 'jest', 'mocha-json': 'mocha', 'rspec-json': 'rspec' }[o.format];
  return {
    runner,
    format: o.format,
    file,
    command: o.args ? `${command} ${o.args.replaceAll('{file}', quote(file))}` : command,
    env,
  };
}

/**
 * pytest is reached through PYTEST_ADDOPTS, so `make test` or `npm test` that end in pytest still write the report;
 * vitest, jest and node --test get flags only when the command starts with them (a wrapper would not pass them on).
 */
export function planReport(
  command: string,
  dir: string,
  named: string | null,
  env: NodeJS.ProcessEnv = {},
): ReportPlan | null {
  const is = (name: string, re: RegExp): boolean => named === name || (named === null && re.test(command));
  if (is('pytest', /\bpytest\b|\bpy\.test\b/)) {
    const file = `${dir}/pytest.xml`;
    const addopts = `${env.PYTEST_ADDOPTS ?? ''} --junitxml=${file}`.trim();
    return {
      runner: 'pytest',
      format: 'junit',
      file,
      command,
      env: { PYTEST_ADDOPTS: addopts },
      witness: {
        files: { [`${WITNESS_MODULE}.py`]: WITNESS_PY },
        env: {
          PYTEST_ADDOPTS: `${addopts} -p ${WITNESS_MODULE}`,
          [WITNESS_MAIN]: '1',
          PYTHONPATH: env.PYTHONPATH ? `${dir}:${env.PYTHONPATH}` : dir,
        },
      },
    };
  }
  if (new RegExp(`${LEAD}vitest\\b`).test(command) && (named === null || named === 'vitest')) {
    const file = `${dir}/vitest.xml`;
    return {
      runner: 'vitest',
      format: 'junit',
      file,
      command: `${command} --reporter=default --reporter=junit --outputFile.junit=${quote(file)}`,
      env: {},
    };
  }
  if (new RegExp(`${LEAD}jest\\b`).test(command) && (named === null || named === 'jest')) {
    const file = `${dir}/jest.json`;
    return {
      runner: 'jest',
      format: 'jest-json',
      file,
      command: `${command} --json --outputFile=${quote(file)}`,
      env: {},
    };
  }
  if (new RegExp(`${LEAD}(?:\\S*/)?phpunit\\b`).test(command) && (named === null || named === 'phpunit')) {
    const file = `${dir}/phpunit.xml`;
    return { runner: 'phpunit', format: 'junit', file, command: `${command} --log-junit ${quote(file)}`, env: {} };
  }
  if (new RegExp(`${LEAD}(?:bundle\\s+exec\\s+)?rspec\\b`).test(command) && (named === null || named === 'rspec')) {
    const file = `${dir}/rspec.json`;
    // Any --format replaces rspec's default console formatter: keep progress on the console when none was given.
    const console = /\s(?:--format|-f)\b/.test(command) ? '' : ' --format progress';
    return {
      runner: 'rspec',
      format: 'rspec-json',
      file,
      command: `${command}${console} --format json --out ${quote(file)}`,
      env: {},
    };
  }
  const node = /^(\s*node\s+(?:--[\w-]+(?:=\S+)?\s+)*--test\b)/.exec(command);
  if (node && (named === null || named === 'node-test')) {
    const file = `${dir}/node-test.xml`;
    const flags = ` --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=${quote(file)}`;
    const head = node[1] as string;
    return {
      runner: 'node-test',
      format: 'junit',
      file,
      command: `${head}${flags}${command.slice(head.length)}`,
      env: {},
      witness: nodeWitness(dir, env),
    };
  }
  return null;
}
