// Re-collecting unchanged work (a real vitest project with colours, checked in sealed checkouts at random temporary
// paths) shows the judge the same context, so judging it again makes no call; a plain collect keeps the merged
// verdict; changed work drops it. The judge is the real SDK against a loopback Messages API.
import { realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run as collect } from '../../scripts/collect.js';
import { run as judge } from '../../scripts/judge.js';
import type { Feedback, Judgment } from '../../lib/schema/types.generated.js';
import { StateStore } from '../../lib/store/store.js';
import { gitIn, writeTree } from '../helpers/repo.js';
import {
  agentWorktree,
  makeIo,
  makeProject,
  ROOT,
  runRecord,
  writeRecord,
  type Project,
} from '../collector/_project.js';
import { goodReply, startMessagesServer, type MessagesServer } from './helpers/messages-server.js';

const NODE_MODULES = realpathSync(join(ROOT, 'node_modules'));

let server: MessagesServer;
beforeAll(async () => {
  server = await startMessagesServer({ kind: 'reply', text: goodReply() });
});
afterAll(() => server.close());

const FILES = {
  '.gitignore': 'node_modules\n',
  'src/add.mjs': 'export function add(a, b) {\n  return a + b;\n}\n',
  'test/add.test.mjs':
    "import { test, expect } from 'vitest';\nimport { add } from '../src/add.mjs';\n" +
    "test('adds', () => expect(add(1, 2)).toBe(3));\ntest('zero', () => expect(add(0, 0)).toBe(0));\n",
};

/** Config: vitest reachable in every checkout (a link made by the setup), colours forced as on a CI terminal. */
function project(phase: number): { p: Project; rec: string; config: string } {
  const p = makeProject(FILES);
  agentWorktree(p, 'a', { commit: { 'src/sub.mjs': 'export const sub = (a, b) => a - b;\n' } });
  const config = join(p.dir, 'judgeloop.json');
  writeFileSync(
    config,
    JSON.stringify({
      collector: {
        setup_command: `mkdir -p node_modules && ln -s ${join(NODE_MODULES, 'vitest')} node_modules/vitest`,
        sandbox_expose: [NODE_MODULES],
      },
      judge: { phase, max_retries: 0 },
    }),
  );
  const commands = {
    build: null,
    test: 'FORCE_COLOR=1 node node_modules/vitest/vitest.mjs run',
    lint: null,
    typecheck: null,
  };
  return { p, rec: writeRecord(p, 'a', runRecord({ commands })), config };
}

const judgeEnv = {
  JUDGE_ENABLED: 'true',
  ANTHROPIC_API_KEY: 'sk-test-dummy',
};

async function collectOnce(p: Project, config: string, rec: string): Promise<Feedback> {
  const { io, err } = makeIo(p);
  expect(await collect(['--quiet', '--config', config, rec], io), err.join('')).toBe(0);
  return new StateStore(p.state).read<Feedback>('feedback', 'bd-1')!;
}

async function judgeOnce(p: Project, config: string, rec: string, extra: string[] = []) {
  const { io, out, err } = makeIo(p, { ...judgeEnv, ANTHROPIC_BASE_URL: server.url });
  const code = await judge(['--json', '--config', config, ...extra, rec], io);
  expect(code, err.join('')).toBe(0);
  return JSON.parse(out.join('')) as {
    status: string;
    message: string;
    dry_run?: { context: string; cache_key: string };
  };
}

describe('re-collecting unchanged work', () => {
  it('shows the judge the same context (no colour, no temporary path, no timing) and makes no second call', async () => {
    const { p, rec, config } = project(2);
    const first = await collectOnce(p, config, rec);
    const raw1 = first.checks.test!.output!.text;
    expect(first.checks.test?.tests).toMatchObject({ runner: 'vitest', passed: 2, failed: 0 });
    const dry1 = (await judgeOnce(p, config, rec, ['--dry-run'])).dry_run!;
    const before = server.requests.length;
    expect((await judgeOnce(p, config, rec)).status).toBe('judged');
    expect(server.requests.length).toBe(before + 1);
    // The request carried the normalised text.
    expect(JSON.stringify(server.requests.at(-1)!.body)).not.toContain('\\u001b');

    const second = await collectOnce(p, config, rec);
    const raw2 = second.checks.test!.output!.text;
    const dry2 = (await judgeOnce(p, config, rec, ['--dry-run'])).dry_run!;
    // What the runner printed differs (colours around new times, another checkout folder)…
    expect(raw1).toContain('\u001b[');
    expect(raw1).not.toBe(raw2);
    // …what the judge is shown does not, byte for byte.
    expect(dry2.context).toBe(dry1.context);
    expect(dry2.cache_key).toBe(dry1.cache_key);
    expect(dry1.context).not.toContain('\u001b');
    expect(dry1.context).not.toMatch(/judgeloop-[\w-]*sealed/);
    expect(dry1.context).toContain('test/add.test.mjs (2 tests) #s');
    // Judged again after the re-collect: the same key, no call.
    const again = await judgeOnce(p, config, rec);
    expect(again.status).toBe('cached');
    expect(server.requests.length).toBe(before + 1);
  }, 240_000);

  it('a plain collect (phase 1) keeps the verdict a phase-2 judge merged; changed work drops it, with a note', async () => {
    const { p, rec, config } = project(1);
    await collectOnce(p, config, rec);
    const { io, err } = makeIo(p, { ...judgeEnv, ANTHROPIC_BASE_URL: server.url, JUDGE_PHASE: '2' });
    expect(await judge(['--config', config, rec], io), err.join('')).toBe(0);
    const store = new StateStore(p.state);
    const j = store.read<Judgment>('judgments', 'bd-1')!;
    expect(store.read<Feedback>('feedback', 'bd-1')!.judgment).toMatchObject({ verdict: j.verdict, score: j.score });

    // The config says phase 1: the merged verdict stays all the same (it is about this very tree).
    const kept = await collectOnce(p, config, rec);
    expect(kept.judgment).toMatchObject({ verdict: j.verdict, score: j.score });
    expect(j.run.head_tree).toBe(kept.head?.tree);

    // New work in the worktree: another tree, so the old verdict is not carried (the judge has to look again).
    writeTree(join(p.dir, 'wt-a'), { 'src/sub.mjs': 'export const sub = (a, b) => b - a;\n' });
    gitIn(join(p.dir, 'wt-a'), 'commit', '-qam', 'rework');
    const changed = await collectOnce(p, config, rec);
    expect(changed.judgment).toBeNull();
    expect(changed.integrity.notes.join(' ')).toMatch(/judgment not carried: it judged tree [0-9a-f]{12}/);
  }, 240_000);
});
