// bin/init: a starting judgeloop.json in the current folder, from flags, and questions for the rest on a terminal.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { main, type Io } from '../lib/cli/cli.js';
import { parse } from '../lib/cli/command.js';
import { INIT } from '../lib/cli/commands/init.js';
import { UserError } from '../lib/base/errors.js';
import { loadConfig } from '../lib/config/config.js';
import { detectProject, readProject, type Detected } from '../lib/cli/detect.js';
import { writeFileAtomic } from '../lib/store/state-write.js';
import { packageScripts } from '../lib/collector/checks.js';
import { perTestSource, TEST_REPORT_FIX } from '../lib/collector/parsers/report-plan.js';

type Answers = Record<
  'agent' | 'template' | 'base' | 'build' | 'test' | 'lint' | 'typecheck' | 'fetch' | 'setup',
  string | undefined
>;
const QUESTIONS: [keyof Answers, string][] = [
  ['agent', 'agent slug (e.g. claude-code)'],
  ['base', 'branch the agents start from (e.g. main)'],
  ['build', 'build command (empty: none)'],
  ['test', 'test command'],
  ['lint', 'lint command (empty: none)'],
  ['setup', 'setup command, run without network in each clean checkout (empty: none)'],
];

/** The config object for the answers: only what was given (the defaults fill the rest). */
export function initConfig(a: Answers, judge: boolean, stateDir: string | undefined): Record<string, unknown> {
  const record = Object.fromEntries(
    [
      ['agent', a.agent],
      ['template', a.template],
      ['base_ref', a.base],
    ].filter(([, v]) => v),
  );
  const commands = Object.fromEntries(
    (['build', 'test', 'lint', 'typecheck'] as const).filter((k) => a[k]).map((k) => [k, a[k]]),
  );
  const collector = {
    ...(Object.keys(commands).length ? { commands } : {}),
    ...(a.fetch ? { fetch_command: a.fetch } : {}),
    ...(a.setup ? { setup_command: a.setup } : {}),
  };
  return {
    ...(stateDir ? { state_dir: stateDir } : {}),
    ...(Object.keys(record).length ? { record } : {}),
    ...(Object.keys(collector).length ? { collector } : {}),
    ...(judge ? { judge: { enabled: true } } : {}),
  };
}

/** What detection found, where no flag said otherwise (an empty flag keeps it empty). */
function fillDetected(a: Answers, d: Detected): void {
  const found: Partial<Record<keyof Answers, string | null>> = { ...d.commands, fetch: d.fetch, setup: d.setup };
  for (const [k, v] of Object.entries(found) as [keyof Answers, string | null][]) if (a[k] === undefined && v) a[k] = v;
}

async function ask(a: Answers): Promise<void> {
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    for (const [k, q] of QUESTIONS) if (a[k] === undefined) a[k] = (await rl.question(`${q}: `)).trim() || undefined;
  } finally {
    rl.close();
  }
}

export async function run(argv: string[], io: Io): Promise<number> {
  const { values: v } = parse(INIT, argv);
  const file = join(io.cwd, 'judgeloop.json');
  if (existsSync(file) && !v.force) throw new UserError(`${file} exists already; --force overwrites it`);
  const a: Answers = {
    agent: v.agent,
    template: v.template,
    base: v.base,
    build: v.build,
    test: v.test,
    lint: v.lint,
    typecheck: undefined,
    fetch: v.fetch,
    setup: v.setup,
  };
  const found = detectProject(readProject(resolve(io.cwd, v.project ?? '.')));
  if (found) {
    fillDetected(a, found);
    io.stderr(`init: detected ${found.kind}\n`);
  } else if (v.project !== undefined)
    throw new UserError(
      `--project ${v.project}: no package.json, lockfile, pyproject.toml, requirements.txt, setup.py, go.mod or Cargo.toml there`,
    );
  if (io.tty && process.stdin.isTTY) await ask(a);
  const text = `${JSON.stringify(initConfig(a, Boolean(v.judge), v['state-dir']), null, 2)}\n`;
  writeFileAtomic(file, text);
  try {
    loadConfig({ env: {}, configFile: file, cwd: io.cwd });
  } catch (e) {
    throw new UserError(`judgeloop.json written but refused: ${(e as Error).message}; fix it or run init again`);
  }
  io.stdout(`${file}\n`);
  if (a.test) {
    const s = perTestSource(a.test, packageScripts(io.cwd), null, null);
    if (!s.perTest) io.stderr(`init: \`${a.test}\` gives counts only (${s.detail}); ${TEST_REPORT_FIX}\n`);
  }
  io.stderr(`init: wrote ${file}; next: judgeloop doctor\n`);
  return 0;
}

main(import.meta.url, run);
