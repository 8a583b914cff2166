// Every command that writes state says in its --json output which state folder it used (`state_dir`), through
// bin/judgeloop as a user types it; the folder named is the one the files went to (the config file's state_dir).
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { agentCommit, cleanEnv, makeJudging, runProc } from './_setup.js';

const j = makeJudging({
  state_dir: 'kept-state',
  record: { agent: 'claude-code', template: 'default', complexity: 3 },
});
afterAll(() => j.cleanup());
const state = join(j.top, 'kept-state');
const env = cleanEnv(j.top);
const jl = async (args: string[], input?: string) => {
  const r = await runProc('judgeloop', [...args, '--json', '--quiet'], { cwd: j.repo, env, input });
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout;
};
const dirOf = (json: string) => (JSON.parse(json) as { state_dir?: string }).state_dir;

describe('--json carries state_dir', () => {
  it('record, collect, judge, rate, score-templates, select-template, agents, route', async () => {
    agentCommit(j.repo);
    const rec = await jl(['record', '--from-commit', '--bead', 'sj-1']);
    expect(dirOf(rec)).toBe(state);
    // The record printed still feeds collect (its reader drops state_dir).
    const fb = await jl(['collect', '-'], rec);
    expect(dirOf(fb)).toBe(state);
    expect(existsSync(join(state, 'feedback', 'sj-1.json'))).toBe(true);
    expect(dirOf(await jl(['judge', join(state, 'runs', 'sj-1.json')]))).toBe(state);
    const rated = JSON.parse(await jl(['rate', 'sj-1', '--quality', '7'])) as { state_dir: string }[];
    expect(rated.map((r) => r.state_dir)).toEqual([state]);
    expect(dirOf(await jl(['score-templates']))).toBe(state);
    expect(dirOf(await jl(['select-template']))).toBe(state);
    expect(dirOf(await jl(['agents', 'add', 'codex-cli']))).toBe(state);
    expect(dirOf(await jl(['route', '--command', 'work', '--complexity', '3']))).toBe(state);
    expect(existsSync(join(j.top, 'state'))).toBe(false);
  }, 120_000);
});
