// Which machine-readable report to ask a recognised test runner for, and how (pure: no file is touched here).
import type { ReportFormat } from './reports.js';
import { jsWitness } from './js-witness.js';
import { nodeWitness } from './node-witness.js';
import { cargoWitness, goWitness } from './native-witness.js';
import { unittestWitness } from './unittest-witness.js';
import { WITNESS_MAIN, WITNESS_PATH, WITNESS_PY, witnessModule } from './pytest-witness.js';

export interface ReportPlan {
  runner: string;
  format: ReportFormat | 'console';
  /**
   * Absolute path the runner is asked to write (inside the fresh report directory); null: the runner's per-test
   * results are its console output, asked for by a flag (`go test -json`).
   */
  file: string | null;
  /** The command to run (the configured one, with report flags added where needed). */
  command: string;
  /** Extra environment for the command. */
  env: Record<string, string>;
  /** pytest, unittest, node --test, vitest, jest, mocha: our observer, written into the report folder, and its env. */
  witness?: { files: Record<string, string>; env: Record<string, string> };
}

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
// The runner as the command's first word (after env assignments, quoted values too, and npx/pnpm/yarn exec wrappers).
const ASSIGN = String.raw`\w+=(?:"[^"]*"|'[^']*'|[^\s"'])*\s+`;
const LEAD = String.raw`^\s*(?:${ASSIGN})*(?:cross-env\s+(?:${ASSIGN})*)?(?:(?:npx|pnpm(?:\s+exec)?|yarn|bunx)\s+)?`;
const NODE_TEST = new RegExp(String.raw`^\s*(?:${ASSIGN})*node\s+(?:--[\w-]+(?:=\S+)?\s+)*--test\b`);
const GO_TEST = new RegExp(String.raw`^(\s*(?:${ASSIGN})*go\s+test)\b`);
const CARGO_TEST = new RegExp(String.raw`^\s*(?:${ASSIGN})*cargo\s+(?:\+\S+\s+)?test\b`);

/** A GOFLAGS the command sets before go test (it wins over the environment's) carries the observer's flag too. */
function inlineGoflags(command: string, flag: string): string {
  const m = new RegExp(String.raw`^(\s*(?:${ASSIGN})*?)GOFLAGS=("[^"]*"|'[^']*'|[^\s"']*)(?=\s)`).exec(command);
  if (!m) return command;
  const v = m[2] as string;
  const value = /^["']/.test(v) ? `${v.slice(0, -1)} ${flag}${v.slice(-1)}` : `"${v} ${flag}"`;
  return `${m[1]}GOFLAGS=${value}${command.slice(m[0].length)}`;
}

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
 * The pytest witness: a module under this run's own name (no file in the tree can shadow a name it cannot know) in
 * the report folder. The `pytest` script starts with safe paths (PYTHONSAFEPATH); `python -m pytest` keeps its cwd
 * first (its imports need it). The witness restores PYTHONPATH for the processes the tests start.
 */
function pytestWitness(command: string, dir: string, addopts: string, env: NodeJS.ProcessEnv) {
  const name = witnessModule(dir);
  const was = env.PYTHONPATH ?? '';
  const script = new RegExp(`${LEAD}(?:\\S*/)?(?:pytest|py\\.test)\\b`).test(command);
  return {
    files: { [`${name}.py`]: WITNESS_PY },
    env: {
      // The pass hook makes pytest build each passing assertion's comparison, where the witness sees its values.
      PYTEST_ADDOPTS: `${addopts} -p ${name} -o enable_assertion_pass_hook=true`,
      [WITNESS_MAIN]: '1',
      [WITNESS_PATH]: was,
      PYTHONPATH: was ? `${dir}:${was}` : dir,
      ...(script ? { PYTHONSAFEPATH: '1' } : {}),
    },
  };
}

/**
 * pytest is reached through PYTEST_ADDOPTS, so `make test` or `npm test` that end in pytest still write the report;
 * vitest, jest and node --test get flags only when the command starts with them (a wrapper would not pass them on).
 */
function planDirect(
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
      witness: pytestWitness(command, dir, addopts, env),
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
      witness: jsWitness(dir, env),
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
      witness: jsWitness(dir, env),
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
  if (new RegExp(`${LEAD}mocha\\b`).test(command) && (named === null || named === 'mocha')) {
    const file = `${dir}/mocha.json`;
    // mocha runs one reporter: its JSON goes to the file, and the console shows nothing of the tests.
    return {
      runner: 'mocha',
      format: 'mocha-json',
      file,
      command: `${command} --reporter json --reporter-option output=${quote(file)}`,
      env: {},
      witness: jsWitness(dir, env),
    };
  }
  // python -m unittest: its console is the evidence; the command runs our observer module, which runs unittest.
  const ut = named === null || named === 'unittest' ? unittestWitness(command, dir, env) : null;
  if (ut)
    return {
      runner: 'unittest',
      format: 'console',
      file: null,
      command: ut.command,
      env: {},
      witness: { files: ut.files, env: ut.env },
    };
  // go test -json: test2json's per-test events on the console (go's parser reads them), in every package; each test
  // binary run by judgeloop's observer. A command named as go's (`make test`) gets the observer alone.
  const go = GO_TEST.test(command);
  if ((go && named === null) || named === 'go') {
    const { flag, ...w } = goWitness(dir, env);
    const json = !go || /(?:^|\s)-json\b/.test(command) ? command : command.replace(GO_TEST, '$1 -json');
    return { runner: 'go', format: 'console', file: null, command: inlineGoflags(json, flag), env: {}, witness: w };
  }
  // cargo test: its console (libtest's lines), every test binary run by judgeloop's observer.
  if ((CARGO_TEST.test(command) && named === null) || named === 'cargo')
    return { runner: 'cargo', format: 'console', file: null, command, env: {}, witness: cargoWitness(dir) };
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

const JS_RUNNER = new RegExp(`${LEAD}(vitest|jest|mocha)\\b`);

/**
 * The observer alone, when no report can be asked for (the runner is not the script's last command, or the command is
 * a chain): vitest, jest or mocha anywhere in the command or the scripts it runs still runs under it (NODE_OPTIONS
 * reaches every node process); the counts come from the console.
 */
export function planObserved(
  command: string,
  dir: string,
  named: string | null,
  env: NodeJS.ProcessEnv = {},
  scripts: Readonly<Record<string, unknown>> | null = null,
): ReportPlan | null {
  const find = (cmd: string, depth: number): string | null => {
    for (const part of shellSegments(cmd)) {
      const m = JS_RUNNER.exec(part);
      if (m) return m[1] as string;
      const call = depth < 3 ? scriptCall(part, scripts) : null;
      const inner = call ? find(call.body, depth + 1) : null;
      if (inner) return inner;
    }
    return null;
  };
  const runner = find(command, 0);
  if (!runner || (named !== null && named !== runner)) return null;
  return { runner, format: 'console', file: null, command, env: {}, witness: jsWitness(dir, env) };
}

/** A command's parts between shell operators (`&&`, `||`, `;`, `|`, `&`, newline), quotes respected. */
export function shellSegments(command: string): string[] {
  const out: string[] = [];
  let cur = '';
  let q: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i] as string;
    if (q) {
      if (c === q) q = null;
      else if (c === '\\' && q === '"') cur += command[i++] ?? '';
      cur += c;
      continue;
    }
    if (c === "'" || c === '"') q = c;
    else if (c === '\\') {
      cur += c + (command[++i] ?? '');
      continue;
    } else if (/[;&|\n]/.test(c)) {
      out.push(cur.trim());
      cur = '';
      if ((c === '&' || c === '|') && command[i + 1] === c) i++;
      continue;
    }
    cur += c;
  }
  out.push(cur.trim());
  return out.filter((x) => x !== '');
}

/** `npm test`, `npm run <s>`, `yarn test`, `yarn run <s>`, `pnpm test`, `pnpm run <s>`: the manager and the script. */
const SCRIPT_CALL = /^\s*(npm|yarn|pnpm)\s+(?:(?:run|run-script)\s+([\w:.@/-]+)|(test|t|tst))(?=\s|$)(.*)$/;

interface ScriptCall {
  manager: 'npm' | 'yarn' | 'pnpm';
  script: string;
  /** The script's last command: where the arguments given after the script name arrive. */
  last: string;
  body: string;
}

/** The package.json script a command runs (itself one command: arguments appended to it reach the script). */
function scriptCall(command: string, scripts: Readonly<Record<string, unknown>> | null): ScriptCall | null {
  if (!scripts || shellSegments(command).length !== 1) return null;
  const m = SCRIPT_CALL.exec(command);
  if (!m) return null;
  const manager = m[1] as ScriptCall['manager'];
  const name = m[2] ?? (m[1] === 'npm' || m[3] === 'test' ? 'test' : null);
  const body = name === null ? undefined : scripts[name];
  if (typeof body !== 'string' || body.trim() === '') return null;
  const parts = shellSegments(body);
  return { manager, script: name as string, last: parts[parts.length - 1] ?? '', body };
}

/**
 * The report to ask for. A package-manager script (`npm test`; its body from `scripts`, the trusted package.json as
 * the graded run has it) is resolved to its runner: arguments after the script name reach only the script's last
 * command, so vitest, jest and mocha get their flags only when they are that command; node --test gets its reporters
 * through NODE_OPTIONS (it takes no option after a file), pytest through PYTEST_ADDOPTS, wherever in the script.
 */
export function planReport(
  command: string,
  dir: string,
  named: string | null,
  env: NodeJS.ProcessEnv = {},
  scripts: Readonly<Record<string, unknown>> | null = null,
  depth = 0,
): ReportPlan | null {
  const call = depth < 3 ? scriptCall(command, scripts) : null;
  if (!call) return planDirect(command, dir, named, env);
  const whole = planDirect(call.body, dir, named, env);
  if (whole?.runner === 'pytest') return { ...whole, command };
  const nodeRuns = shellSegments(call.body).filter((x) => NODE_TEST.test(x)).length;
  if (nodeRuns === 1 && (named === null || named === 'node-test')) {
    const file = `${dir}/node-test.xml`;
    const flags = `--test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=${file}`;
    const options = env.NODE_OPTIONS ? `${env.NODE_OPTIONS} ${flags}` : flags;
    return {
      runner: 'node-test',
      format: 'junit',
      file,
      command,
      env: { NODE_OPTIONS: options },
      witness: nodeWitness(dir, { ...env, NODE_OPTIONS: options }),
    };
  }
  const inner = planReport(call.last, dir, named, env, scripts, depth + 1);
  if (!inner) return null;
  // go and cargo: their observer reaches them through the environment; the console is whatever the script prints.
  if (inner.runner === 'go' || inner.runner === 'cargo') return { ...inner, command };
  // Only flags appended at the end reach the runner through the script; a node --test or go test planned otherwise.
  if (inner.format === 'console' || !inner.command.startsWith(call.last)) return null;
  const added = inner.command.slice(call.last.length);
  // npm passes what follows `--` to the script; yarn and pnpm pass everything after the script's name.
  const sep = call.manager === 'npm' && !/(?:^|\s)--(?:\s|$)/.test(command) ? ' --' : '';
  return { ...inner, command: `${command.trimEnd()}${sep}${added}` };
}

/** Where a test command's per-test results come from, or why only its counts do (init and doctor say it). */
export interface PerTestSource {
  perTest: boolean;
  detail: string;
}

export function perTestSource(
  command: string,
  scripts: Readonly<Record<string, unknown>> | null,
  named: string | null,
  configured: ReportOverride | null,
): PerTestSource {
  if (configured) return { perTest: true, detail: `the ${configured.format} report named in collector.test_report` };
  if (CARGO_TEST.test(command) && /\s(?:-q|--quiet)\b|--format[= ]terse/.test(command))
    return { perTest: false, detail: 'cargo test in quiet mode prints dots, not test names: drop -q' };
  const plan = planReport(command, '/report', named, {}, scripts);
  if (plan)
    return {
      perTest: true,
      detail:
        plan.runner === 'cargo'
          ? "cargo: libtest's `test name ... ok` line for every test, each test binary under judgeloop's observer"
          : plan.runner === 'go' && plan.command !== command
            ? `go: judgeloop runs \`${plan.command}\` (per-test events on the console), each test binary under judgeloop's observer`
            : plan.format === 'console' && plan.witness
              ? `${plan.runner}: its console, run under judgeloop's observer`
              : plan.format === 'console'
                ? `${plan.runner}: judgeloop runs \`${plan.command}\` (per-test events on the console)`
                : `${plan.runner}: judgeloop asks it for its ${plan.format} report`,
    };
  const m = SCRIPT_CALL.exec(command);
  const why = !m
    ? 'judgeloop does not recognise its runner'
    : !scripts
      ? 'no package.json with scripts beside the config'
      : !scriptCall(command, scripts)
        ? `package.json has no script "${m[2] ?? 'test'}" (or the command is a chain)`
        : `the script's runner is not its last command (arguments reach only that) or is not one judgeloop knows`;
  return { perTest: false, detail: `${why}: only counts come back, no test is named` };
}

/** What to set for a command that gives counts only. */
export const TEST_REPORT_FIX =
  'set collector.test_report: the format and the flags that make the runner write it to {file} (e.g. {"format": "junit", "args": "-- --reporter=junit --outputFile.junit={file}"} for `npm test` running vitest), or name the runner in the test command ("npx vitest run")';
