// task.hidden_tests through collect, judge and record (real pytest, a real git repo, the loopback Messages API): graded
// like targets, reported apart, never in the judge's request nor in the worktree; refused inside a working tree.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run as collect } from '../../scripts/collect.js';
import { run as judge } from '../../scripts/judge.js';
import { run as record } from '../../scripts/record.js';
import { StateStore } from '../../lib/store/store.js';
import type { Feedback, RunRecord } from '../../lib/schema/types.generated.js';
import { gitIn, makeRepo, tempDir, writeTree } from '../helpers/repo.js';
import { captureIo } from '../judge/helpers/feedback.js';
import { goodReply, startMessagesServer, type MessagesServer } from '../judge/helpers/messages-server.js';

const BUGGY = 'UNITS = {"s": 1, "m": 60}\n\n\ndef seconds(text):\n    return int(text[:-1]) * UNITS[text[-1]]\n';
const VISIBLE = 'from units import seconds\n\n\ndef test_hours():\n    assert seconds("1h") == 3600\n';
const HIDDEN =
  'from units import seconds\n\n\ndef test_two_hours_heldout():\n    assert seconds("2h") == 7200\n\n\ndef test_minutes_heldout():\n    assert seconds("3m") == 180\n';
const PYTEST = 'python3 -m pytest -p no:cacheprovider -p no:hypothesispytest -p no:benchmark -q tests';

let server: MessagesServer;
let dir: string;
let repo: string;
let wt: string;
let state: string;
beforeAll(async () => {
  server = await startMessagesServer({ kind: 'reply', text: goodReply() });
  dir = tempDir('judgeloop-hidden-');
  state = join(dir, 'state');
  repo = makeRepo({ 'units.py': BUGGY, 'tests/test_units.py': VISIBLE, '.gitignore': '__pycache__/\n' });
  wt = join(dir, 'wt');
  gitIn(repo, 'worktree', 'add', '-q', '-b', 'agent/fix', wt);
  writeTree(wt, { 'units.py': BUGGY.replace('"m": 60}', '"m": 60, "h": 3600}') });
  gitIn(wt, 'commit', '-qam', 'fix hours');
  mkdirSync(join(dir, 'held-out', 'tests'), { recursive: true });
  writeFileSync(join(dir, 'held-out', 'tests', 'test_units_heldout.py'), HIDDEN);
});
afterAll(() => server.close());

function runRecord(bead: string, hidden: string): string {
  const file = join(dir, `${bead}.json`);
  const r: RunRecord = {
    schema_version: '1.0.0',
    bead,
    task: { id: 'hours', prompt: 'seconds() does not know hours: fix it', type: 'bugfix', hidden_tests: hidden },
    agent: { slug: 'a' },
    template: 't',
    worktree: wt,
    base_ref: 'main',
    started_at: '2026-01-01T10:00:00Z',
    completed_at: '2026-01-01T10:01:00Z',
    exit_code: 0,
    status: 'completed',
    commands: { build: null, test: PYTEST, lint: null, typecheck: null },
  };
  writeFileSync(file, JSON.stringify(r));
  return file;
}
// python3 is the interpreter itself, not a version manager's shim (each start through pyenv's costs ~0.5 s of CPU).
const processEnv = { ...process.env };
const io = () =>
  captureIo(
    {
      JUDGE_ENABLED: 'true',
      ANTHROPIC_API_KEY: 'sk-test-dummy',
      ANTHROPIC_BASE_URL: server.url,
      JUDGELOOP_STATE_DIR: state,
    },
    processEnv,
  );

describe('hidden tests from a folder outside every worktree', () => {
  it('are graded like targets, reported apart, and never reach the judge', async () => {
    const c = io();
    expect(await judge([runRecord('bd-path', join(dir, 'held-out'))], c), c.err.join('')).toBe(0);
    const fb = new StateStore(state).read<Feedback>('feedback', 'bd-path')!;
    expect(fb.hidden).toMatchObject({
      source: { kind: 'path' },
      files: 1,
      total: 2,
      passed: 2,
      targets: 1,
      fixed: ['tests/test_units_heldout.py::test_two_hours_heldout'],
      broke: [],
      resolved: true,
      line: 'hidden tests: 2/2 pass; fixes 1 of 1 hidden target',
    });
    expect(fb.resolution?.resolved).toBe(true);
    // The graded run (what the judge reads) ran the visible tests alone.
    expect(fb.checks.test?.tests?.cases?.map((x) => x.id)).toEqual(['tests/test_units.py::test_hours']);
    const sent = JSON.stringify(server.requests.map((q) => q.body));
    expect(server.requests.length).toBeGreaterThan(0);
    expect(sent).toContain('test_hours');
    expect(sent).not.toMatch(/heldout|7200|held-out/);
    expect(gitIn(wt, 'status', '--porcelain', '--ignored')).not.toMatch(/heldout/);
  });

  it('a folder inside the agent worktree or the repository working tree is refused', async () => {
    mkdirSync(join(wt, 'secret'), { recursive: true });
    writeFileSync(join(wt, 'secret', 'test_x.py'), HIDDEN);
    mkdirSync(join(repo, 'held'), { recursive: true });
    writeFileSync(join(repo, 'held', 'test_x.py'), HIDDEN);
    for (const [bead, path] of [
      ['bd-in-wt', join(wt, 'secret')],
      ['bd-in-repo', join(repo, 'held')],
    ] as const) {
      const c = io();
      expect(await collect([runRecord(bead, path)], c)).toBe(2);
      expect(c.err.join('')).toMatch(
        /\/task\/hidden_tests: .* is inside the repository's working tree .*would not be hidden/,
      );
    }
  });
});

describe('hidden tests from a ref', () => {
  it('are the ref’s test files the base lacks, graded the same way', async () => {
    const held = join(dir, 'held-ref');
    gitIn(repo, 'worktree', 'add', '-q', '--detach', held, 'main');
    writeTree(held, { 'tests/test_units_heldout.py': HIDDEN });
    gitIn(held, 'add', '-A');
    gitIn(held, 'commit', '-qm', 'held-out tests');
    gitIn(held, 'update-ref', 'refs/judgeloop/hidden/hours', 'HEAD');
    gitIn(repo, 'worktree', 'remove', '--force', held);
    const c = io();
    expect(await collect([runRecord('bd-ref', 'refs/judgeloop/hidden/hours')], c), c.err.join('')).toBe(0);
    const fb = new StateStore(state).read<Feedback>('feedback', 'bd-ref')!;
    expect(fb.hidden).toMatchObject({ source: { kind: 'ref' }, files: 1, passed: 2, total: 2, resolved: true });
    // collect's text: the hidden line beside the verdict.
    expect(c.out.join('')).toContain('hidden tests: 2/2 pass; fixes 1 of 1 hidden target');
    expect(fb.hidden?.source.commit).toBe(gitIn(repo, 'rev-parse', 'refs/judgeloop/hidden/hours').trim());
  });

  it('a ref that names nothing is a clear error', async () => {
    const c = io();
    expect(await collect([runRecord('bd-bad', 'refs/judgeloop/hidden/nope')], c)).toBe(2);
    expect(c.err.join('')).toContain(
      '/task/hidden_tests: "refs/judgeloop/hidden/nope" is neither an absolute path nor a commit or ref',
    );
  });
});

describe('record --hidden-tests', () => {
  const args = [
    '--worktree',
    '',
    '--agent',
    'a',
    '--template',
    't',
    '--task',
    'hours',
    '--prompt',
    'fix hours',
    '--started-at',
    // An hour before the machine's clock: the record completes now, and a fixed date would be later than that on
    // a machine whose clock is earlier (collect's parse refuses a run that completed before it started).
    new Date(Date.now() - 3600_000).toISOString(),
  ];
  const withWt = () => args.map((a, i) => (i === 1 ? wt : a));
  it('makes a path absolute; JUDGELOOP_HIDDEN_TESTS gives it too', async () => {
    const out = join(dir, 'rec.json');
    const c = { ...io(), cwd: dir };
    expect(
      await record([...withWt(), '--hidden-tests', 'held-out', '--out', out, '--base', 'main'], c),
      c.err.join(''),
    ).toBe(0);
    expect((JSON.parse(readFileSync(out, 'utf8')) as RunRecord).task.hidden_tests).toBe(join(dir, 'held-out'));
    const e = { ...io(), cwd: dir };
    e.env = { ...e.env, JUDGELOOP_HIDDEN_TESTS: 'refs/judgeloop/hidden/hours' };
    expect(await record([...withWt(), '--out', out, '--base', 'main'], e), e.err.join('')).toBe(0);
    expect((JSON.parse(readFileSync(out, 'utf8')) as RunRecord).task.hidden_tests).toBe('refs/judgeloop/hidden/hours');
  });
  it('refuses a path inside the worktree', async () => {
    const c = { ...io(), cwd: wt };
    await expect(record([...withWt(), '--hidden-tests', 'secret', '--base', 'main'], c)).rejects.toThrow(
      /--hidden-tests secret: inside the repository's working tree .* would not be hidden/,
    );
  });
});
