// bin/doctor: what a set-up needs, checked in order, each with what to fix; exit 1 when anything must be fixed.
import { accessSync, constants, existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { main, type Io } from '../lib/cli/cli.js';
import { parse } from '../lib/cli/command.js';
import { DOCTOR } from '../lib/cli/commands/doctor.js';
import { doctorExit, fail, formatFindings, ok, warn, type Finding } from '../lib/cli/doctor.js';
import { chooseConfigFile, loadConfig, stateChoice, type Config } from '../lib/config/config.js';
import { errorMessage } from '../lib/base/errors.js';
import { bubblewrap, findOnPath } from '../lib/process/sandbox.js';
import { readLockOwner } from '../lib/store/lock.js';
import { isAlive } from '../lib/process/owner.js';
import { resolveModel } from '../lib/judge/cost.js';
import { packageScripts } from '../lib/collector/checks.js';
import { perTestSource, TEST_REPORT_FIX } from '../lib/collector/parsers/report-plan.js';
import { storeFromEnv } from '../lib/cli/command-helpers.js';
import { detectProject, readProject } from '../lib/cli/detect.js';
import { git } from '../lib/git/git.js';
import { plural } from '../lib/base/plural.js';

const VIA = { flag: 'named by --config', env: 'named by JUDGELOOP_CONFIG', found: 'found upwards', none: '' } as const;

/** The folder, or the nearest folder above it that exists, takes a new entry. */
function writable(dir: string): string | null {
  let d = dir;
  while (!existsSync(d) && dirname(d) !== d) d = dirname(d);
  try {
    if (!statSync(d).isDirectory()) return `${d} is not a folder`;
    accessSync(d, constants.W_OK | constants.X_OK);
    return null;
  } catch (e) {
    return `${d}: ${(e as NodeJS.ErrnoException).code ?? errorMessage(e)}`;
  }
}

const names = (dir: string): string[] => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};

/** Lock folders (`*.lock`, anywhere one level under the state folder) whose holder on this machine is dead. */
function staleLocks(root: string): string[] {
  const dirs = [root, ...names(root).map((n) => join(root, n))];
  return dirs.flatMap((d) =>
    names(d)
      .filter((n) => n.endsWith('.lock'))
      .map((n) => join(d, n))
      .filter((l) => {
        const o = readLockOwner(l);
        return o !== null && isAlive(o) === false;
      }),
  );
}

function configFindings(io: Io, file: string | undefined): { findings: Finding[]; config: Config | null } {
  const choice = chooseConfigFile({ env: io.env, configFile: file, cwd: io.cwd });
  const f: Finding[] = [];
  f.push(
    choice.file
      ? ok('config', `${choice.file} (${VIA[choice.via]})`)
      : warn('config', 'no judgeloop.json here or above', 'judgeloop init (writes judgeloop.json in this folder)'),
  );
  try {
    return { findings: f, config: loadConfig({ env: io.env, configFile: file, cwd: io.cwd }) };
  } catch (e) {
    f.push(fail('config', errorMessage(e), 'fix the value named above'));
    return { findings: f, config: null };
  }
}

function stateFindings(io: Io, file: string | undefined): Finding[] {
  try {
    const s = stateChoice(io.env, io.cwd, file);
    const problem = writable(s.dir);
    if (problem) return [fail('state', `${s.dir} not writable (${problem})`, 'set JUDGELOOP_STATE_DIR or "state_dir"')];
    const out = [ok('state', `${s.dir} (${s.via})`)];
    const queued = names(join(s.dir, 'queue')).filter((n) => n.endsWith('.json')).length;
    out.push(
      queued
        ? warn('queue', `${plural(queued, 'run')} waiting for the judge`, 'judgeloop judge --drain (or the cron line)')
        : ok('queue', 'empty'),
    );
    const locks = staleLocks(s.dir);
    out.push(
      locks.length
        ? warn(
            'locks',
            `${locks.length} held by dead processes: ${locks.join(', ')}`,
            'the next write takes them over; or remove them',
          )
        : ok('locks', 'none stale'),
    );
    return out;
  } catch (e) {
    return [fail('state', errorMessage(e), 'set JUDGELOOP_STATE_DIR, or add a judgeloop.json (judgeloop init)')];
  }
}

/** Per-test results of the test command, or counts only (what a race and the collector can then not say). */
function testsFinding(config: Config, projectDir: string): Finding | null {
  const test = config.collector.commands.test;
  if (!test) return null;
  const c = config.collector;
  const s = perTestSource(test, packageScripts(projectDir), c.runners.test ?? null, c.test_report ?? null);
  return s.perTest ? ok('per-test', s.detail) : warn('per-test', `\`${test}\`: ${s.detail}`, TEST_REPORT_FIX);
}

function checkFindings(config: Config, projectDir: string): Finding[] {
  const cmds = Object.entries(config.collector.commands).filter(([, c]) => c);
  const out = [
    cmds.length
      ? ok('checks', cmds.map(([k, c]) => `${k}: ${c}`).join('; '))
      : fail('checks', 'no collector.commands set: nothing would be measured', 'judgeloop init --test "npm test" …'),
  ];
  const perTest = testsFinding(config, projectDir);
  if (perTest) out.push(perTest);
  const b = bubblewrap();
  const mode = config.collector.sandbox ?? 'auto';
  if (b.ok) out.push(ok('sandbox', `bubblewrap at ${b.path}`));
  else if (mode === 'off') out.push(ok('sandbox', 'off (collector.sandbox)'));
  else {
    const lvl = mode === 'required' ? fail : warn;
    out.push(
      lvl('sandbox', b.why, 'install bubblewrap (apt-get install bubblewrap); checks run unsandboxed meanwhile'),
    );
  }
  return out;
}

async function judgeFindings(io: Io, config: Config, online: boolean): Promise<Finding[]> {
  const j = config.judge;
  if (!j.enabled) return [ok('judge', 'off (judge.enabled or JUDGE_ENABLED=true turns it on)')];
  if (j.backend === 'claude-cli') {
    const cli = j.cli_command ?? 'claude';
    const at = cli.includes('/') ? (existsSync(cli) ? cli : null) : findOnPath(cli);
    return [
      at
        ? ok('judge', `claude-cli backend: ${at}`)
        : fail('judge', `${cli} not found on PATH`, 'install Claude Code, or set judge.cli_command'),
    ];
  }
  const key = io.env.ANTHROPIC_API_KEY;
  if (!key) return [fail('judge', 'ANTHROPIC_API_KEY is not set', 'export it, or keep it in judgeloop.env for cron')];
  if (!online) return [ok('judge', 'sdk backend, key present (--online tests it)')];
  const { default: Anthropic } = await import('@anthropic-ai/sdk');
  const client = new Anthropic({
    apiKey: key,
    baseURL: io.env.ANTHROPIC_BASE_URL ?? null,
    maxRetries: 0,
    timeout: 30_000,
  });
  try {
    await client.messages.create({
      model: resolveModel(j),
      max_tokens: 1,
      messages: [{ role: 'user', content: 'ping' }],
    });
    return [ok('judge', `sdk backend, key accepted by ${io.env.ANTHROPIC_BASE_URL ?? 'the API'}`)];
  } catch (e) {
    const status = (e as { status?: number }).status;
    if (status === 401 || status === 403)
      return [fail('judge', `key refused (HTTP ${status})`, 'replace ANTHROPIC_API_KEY')];
    return [warn('judge', `test request failed: ${errorMessage(e)}`, 'check ANTHROPIC_BASE_URL and the network')];
  }
}

/** The setup and checks on the base of the repository here (or --project); nothing outside a repository. */
async function baseCheck(io: Io, config: Config, project: string | undefined, file: string | undefined) {
  const dir = resolve(io.cwd, project ?? '.');
  let top: string;
  try {
    top = (await git(dir, ['rev-parse', '--show-toplevel'])).trim();
  } catch (e) {
    if (project === undefined) return [ok('base', 'not in a git repository (--project DIR checks one)')];
    return [fail('base', `${dir}: not a git repository (${errorMessage(e).split('\n')[0]})`, 'name the repository')];
  }
  const { baseFindings } = await import('../lib/cli/doctor-base.js');
  try {
    return await baseFindings({
      store: storeFromEnv(io.env, io.cwd, file),
      config,
      dir: top,
      env: io.processEnv,
      detected: detectProject(readProject(top)),
      log: (m) => io.stderr(`doctor: ${m}\n`),
    });
  } catch (e) {
    return [fail('base', errorMessage(e), 'fix the value named above')];
  }
}

export async function run(argv: string[], io: Io): Promise<number> {
  const { values } = parse(DOCTOR, argv);
  const { findings, config } = configFindings(io, values.config);
  findings.push(...stateFindings(io, values.config));
  // The project is the config's folder (its package.json names what `npm test` runs), else the current one.
  const chosen = chooseConfigFile({ env: io.env, configFile: values.config, cwd: io.cwd }).file;
  const projectDir = chosen ? dirname(chosen) : io.cwd;
  if (config) {
    findings.push(...checkFindings(config, projectDir));
    if (!values['skip-base'] && !findings.some((f) => f.check === 'state' && f.level === 'fail'))
      findings.push(...(await baseCheck(io, config, values.project, values.config)));
    findings.push(...(await judgeFindings(io, config, Boolean(values.online))));
  }
  io.stdout(values.json ? `${JSON.stringify({ findings })}\n` : `${formatFindings(findings)}\n`);
  return doctorExit(findings);
}

main(import.meta.url, run);
