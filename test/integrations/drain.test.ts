// The cron line and the systemd unit of examples/, run with an empty environment (env -i): they find
// judgeloop.json from the folder they change to, read the key from judgeloop.env, and drain the judge queue.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { goodReply, startMessagesServer, type MessagesServer } from '../judge/helpers/messages-server.js';
import { gitIn } from '../helpers/repo.js';
import { agentCommit, BIN, cleanEnv, EXAMPLES, makeJudging, runProc, TEST_ONLY, type Judging } from './_setup.js';

let server: MessagesServer;
beforeAll(async () => {
  server = await startMessagesServer({ kind: 'reply', text: goodReply() });
});
afterAll(async () => server.close());
let made: Judging[] = [];
afterEach(() => {
  for (const j of made) j.cleanup();
  made = [];
});

// The recipes' placeholders: the judging folder, and where npm put judgeloop's commands.
const PROJECT_PLACEHOLDER = '/srv/judging';
const BIN_PLACEHOLDER = '/usr/local/bin';

/** A judging folder with the judge on in judgeloop.json, two runs queued (the hourly limit at 0 when judged). */
async function queued(): Promise<{ j: Judging; beads: string[] }> {
  const j = makeJudging({ judge: { enabled: true, max_per_hour: 20 }, collector: TEST_ONLY });
  made.push(j);
  // The example env file, its placeholder key replaced; the endpoint line points the real SDK at the loopback server.
  const envFile = readFileSync(join(EXAMPLES, 'cron', 'judgeloop.env'), 'utf8').replace(
    'sk-ant-replace-me',
    'sk-ant-test-key',
  );
  expect(envFile).toContain('ANTHROPIC_API_KEY=sk-ant-test-key');
  writeFileSync(join(j.top, 'judgeloop.env'), `${envFile}ANTHROPIC_BASE_URL=${server.url}\n`);
  const beads: string[] = [];
  for (const msg of ['Add sub()', 'Tidy sub()']) {
    if (msg === 'Add sub()') agentCommit(j.repo, msg);
    else {
      writeFileSync(join(j.repo, 'src', 'sub.mjs'), 'export function sub(a, b) {\n  return a - b; // tidy\n}\n');
      gitIn(j.repo, 'commit', '-qam', msg);
    }
    const r = await runProc(join(BIN, 'record'), ['--from-commit', '--judge'], {
      cwd: j.repo,
      env: cleanEnv(j.top, {
        JUDGE_MAX_PER_HOUR: '0',
        ANTHROPIC_API_KEY: 'sk-ant-test-key',
        ANTHROPIC_BASE_URL: server.url,
      }),
    });
    expect(r.code, r.stderr).toBe(0);
    beads.push(JSON.parse(readFileSync(r.stdout.trim().split('\n')[0]!, 'utf8')).bead);
  }
  expect(readdirSync(join(j.state, 'queue')).sort()).toEqual(beads.map((b) => `${b}.json`).sort());
  return { j, beads };
}

function drained(j: Judging, beads: string[]): void {
  expect(
    existsSync(join(j.state, 'queue')) ? readdirSync(join(j.state, 'queue')).filter((f) => f.endsWith('.json')) : [],
  ).toEqual([]);
  for (const b of beads)
    expect(JSON.parse(readFileSync(join(j.state, 'judgments', `${b}.json`), 'utf8')).status).toBe('judged');
}

describe('examples/cron/crontab', () => {
  it("the job line, run under env -i with the crontab's own PATH, drains the queue", async () => {
    const { j, beads } = await queued();
    const lines = readFileSync(join(EXAMPLES, 'cron', 'crontab'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '' && !l.startsWith('#'));
    const pathLine = lines.find((l) => l.startsWith('PATH='))!;
    const job = lines.find((l) => /^\S+ \S+ \S+ \S+ \S+ /.test(l) && !l.startsWith('PATH='))!;
    const command = job.split(' ').slice(5).join(' ').replaceAll(PROJECT_PLACEHOLDER, j.top);
    const path = pathLine.slice('PATH='.length).replace(BIN_PLACEHOLDER, BIN);
    const before = server.requests.length;
    // cron runs the command with sh -c and the crontab's variables; env -i leaves nothing else.
    const r = await runProc('env', ['-i', `PATH=${path}`, 'sh', '-c', command], { cwd: '/', env: {} });
    expect(r.code, r.stderr + readFileSync(join(j.top, 'drain.log'), 'utf8')).toBe(0);
    drained(j, beads);
    expect(server.requests.length).toBe(before + 2);
    expect(readFileSync(join(j.top, 'drain.log'), 'utf8')).not.toMatch(/skipped: judge disabled/);
  }, 120_000);

  it('without judgeloop.json the same line judges nothing: the config file is what turns the judge on', async () => {
    const { j, beads } = await queued();
    const cfg = JSON.parse(readFileSync(join(j.top, 'judgeloop.json'), 'utf8'));
    writeFileSync(join(j.top, 'judgeloop.json'), JSON.stringify({ ...cfg, judge: { enabled: false } }));
    const job = readFileSync(join(EXAMPLES, 'cron', 'crontab'), 'utf8')
      .split('\n')
      .find((l) => /^\*\/15 /.test(l))!;
    const r = await runProc(
      'env',
      [
        '-i',
        `PATH=${BIN}:/usr/bin:/bin`,
        'sh',
        '-c',
        job.split(' ').slice(5).join(' ').replaceAll(PROJECT_PLACEHOLDER, j.top),
      ],
      { cwd: '/', env: {} },
    );
    expect(r.code).toBe(0);
    expect(readdirSync(join(j.state, 'queue'))).toHaveLength(beads.length);
  }, 120_000);
});

describe('examples/systemd', () => {
  function unit(file: string): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const l of readFileSync(file, 'utf8').split('\n')) {
      const m = /^([A-Za-z]+)=(.*)$/.exec(l);
      if (m) (out[m[1]!] ??= []).push(m[2]!);
    }
    return out;
  }

  it('the service, as systemd would start it (env -i, its Environment and EnvironmentFile, WorkingDirectory), drains the queue', async () => {
    const { j, beads } = await queued();
    const u = unit(join(EXAMPLES, 'systemd', 'judgeloop-drain.service'));
    const sub = (s: string) => s.replaceAll(PROJECT_PLACEHOLDER, j.top).replace(BIN_PLACEHOLDER, BIN);
    const env: string[] = [];
    for (const f of u.EnvironmentFile ?? []) {
      for (const l of readFileSync(sub(f), 'utf8').split('\n')) if (/^[A-Z_][A-Z0-9_]*=/.test(l)) env.push(l);
    }
    for (const e of u.Environment ?? []) env.push(sub(e));
    const argv = sub(u.ExecStart![0]!).split(' ');
    const r = await runProc('env', ['-i', ...env, ...argv], { cwd: sub(u.WorkingDirectory![0]!), env: {} });
    expect(r.code, r.stderr).toBe(0);
    drained(j, beads);
  }, 120_000);

  it('systemd-analyze verifies the service and the timer', () => {
    expect(existsSync('/usr/bin/systemd-analyze'), 'systemd-analyze is missing: apt-get install systemd').toBe(true);
    const dir = makeJudging();
    made.push(dir);
    mkdirSync(join(dir.top, 'units'));
    const text = readFileSync(join(EXAMPLES, 'systemd', 'judgeloop-drain.service'), 'utf8').replaceAll(
      PROJECT_PLACEHOLDER,
      dir.top,
    );
    writeFileSync(join(dir.top, 'units', 'judgeloop-drain.service'), text);
    writeFileSync(join(dir.top, 'judgeloop.env'), '');
    copyFileSync(join(EXAMPLES, 'systemd', 'judgeloop-drain.timer'), join(dir.top, 'units', 'judgeloop-drain.timer'));
    const out = execFileSync(
      'systemd-analyze',
      ['verify', join(dir.top, 'units', 'judgeloop-drain.service'), join(dir.top, 'units', 'judgeloop-drain.timer')],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    expect(out).toBe('');
    const cal = unit(join(EXAMPLES, 'systemd', 'judgeloop-drain.timer')).OnCalendar![0]!;
    expect(execFileSync('systemd-analyze', ['calendar', cal], { encoding: 'utf8' })).toContain(
      'Normalized form: *-*-* *:00/15:00',
    );
  });
});
