// The GitHub Actions workflow of examples/github: its judgeloop step, run with bash as the runner would, on a real
// clone checked out at a pull request's head, a stand-in `gh` on PATH recording the comment it is asked to post.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { load as loadYaml } from 'js-yaml';
import { goodReply, startMessagesServer, type MessagesServer } from '../judge/helpers/messages-server.js';
import { gitIn, initRepo, tempDir, writeTree } from '../helpers/repo.js';
import { PROJECT } from '../collector/_project.js';
import { BIN, CHECKS, EXAMPLES, runProc } from './_setup.js';

let server: MessagesServer;
beforeAll(async () => {
  server = await startMessagesServer({ kind: 'reply', text: goodReply() });
});
afterAll(async () => server.close());
let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

interface Step {
  name?: string;
  run?: string;
  env?: Record<string, string>;
}
const workflow = loadYaml(readFileSync(join(EXAMPLES, 'github', 'judgeloop.yml'), 'utf8')) as {
  on: unknown;
  permissions: Record<string, string>;
  jobs: { judge: { steps: Step[] } };
};

/** `${{ a.b.c }}` expressions of the step's env, from a pull_request event context. */
function expand(value: string, ctx: Record<string, unknown>): string {
  return value.replace(/\$\{\{\s*([\w.]+)\s*\}\}/g, (_, path: string) => {
    const v = path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], ctx);
    return v === undefined || v === null ? '' : String(v);
  });
}

/** A repository whose main has judgeloop.json and a pull request branch that fixes code and rewrites that config. */
function pullRequest(): { top: string; workspace: string; base: string; head: string } {
  const top = tempDir('judgeloop-ci-');
  dirs.push(top);
  const origin = join(top, 'origin');
  mkdirSync(origin);
  initRepo(origin, { ...PROJECT, 'judgeloop.json': JSON.stringify({ collector: { commands: CHECKS } }) });
  const base = gitIn(origin, 'rev-parse', 'HEAD');
  gitIn(origin, 'checkout', '-q', '-b', 'pr');
  writeTree(origin, {
    'src/sub.mjs': 'export function sub(a, b) {\n  return a - b;\n}\n',
    'test/sub.test.mjs':
      "import test from 'node:test';\nimport assert from 'node:assert';\nimport { sub } from '../src/sub.mjs';\ntest('subs', () => assert.equal(sub(3, 1), 2));\n",
    // Hostile: the PR rewrites the config it would be judged by (tests that always pass, no sandbox).
    'judgeloop.json': JSON.stringify({
      collector: { sandbox: 'off', commands: { build: null, test: 'echo "ok 99 tests passed"', lint: null } },
    }),
  });
  gitIn(origin, 'add', '-A');
  gitIn(origin, 'commit', '-q', '-m', 'Add sub()');
  const head = gitIn(origin, 'rev-parse', 'HEAD');
  // actions/checkout with fetch-depth 0 at the PR's head sha.
  const workspace = join(top, 'workspace');
  gitIn(top, 'clone', '-q', origin, workspace);
  gitIn(workspace, 'checkout', '-q', '--detach', head);
  return { top, workspace, base, head };
}

function standInGh(dir: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'gh'),
    '#!/bin/sh\n# stand-in gh: records its arguments and the comment body\nprintf "%s\\n" "$@" >"$GH_STUB_OUT/args"\nwhile [ $# -gt 0 ]; do\n  if [ "$1" = --body-file ]; then cp "$2" "$GH_STUB_OUT/body.md"; fi\n  shift\ndone\n',
  );
  chmodSync(join(dir, 'gh'), 0o755);
}

async function runStep(withKey: boolean) {
  const pr = pullRequest();
  const step = workflow.jobs.judge.steps.find((s) => s.name === 'Collect and judge')!;
  const ctx = {
    secrets: { ANTHROPIC_API_KEY: withKey ? 'sk-ant-test-key' : '' },
    github: {
      token: 'ghs_test',
      event: {
        pull_request: {
          number: 42,
          title: 'Add sub()',
          body: 'Adds sub with a test.',
          user: { login: 'octo-agent' },
          // An hour ago by the machine's clock: it is the run's started_at, and the run completes now (a fixed date
          // would be after "now" on a machine whose clock is earlier, and collect refuses such a record).
          created_at: new Date(Date.now() - 3600_000).toISOString(),
          base: { sha: pr.base },
          head: { sha: pr.head },
        },
      },
    },
  };
  const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(String(v), ctx)]));
  const stub = join(pr.top, 'stub');
  standInGh(stub);
  const runnerTemp = join(pr.top, 'runner-temp');
  mkdirSync(runnerTemp);
  const env = {
    PATH: `${stub}:${BIN}:/usr/bin:/bin`,
    HOME: pr.top,
    TMPDIR: tmpdir(),
    RUNNER_TEMP: runnerTemp,
    GITHUB_WORKSPACE: pr.workspace,
    GITHUB_SHA: pr.head,
    GH_STUB_OUT: stub,
    ANTHROPIC_BASE_URL: server.url,
    ...stepEnv,
  };
  writeFileSync(join(pr.top, 'step.sh'), step.run!);
  // The runner's default shell for `run:`.
  const r = await runProc('bash', ['--noprofile', '--norc', '-eo', 'pipefail', join(pr.top, 'step.sh')], {
    cwd: pr.workspace,
    env,
  });
  return { r, pr, stub, runnerTemp };
}

describe('examples/github/judgeloop.yml', () => {
  it('runs on pull requests and may comment on them', () => {
    expect(workflow.on).toHaveProperty('pull_request');
    expect(workflow.permissions['pull-requests']).toBe('write');
  });

  it("without a key: collects with the base commit's config, skips the judge, comments the table", async () => {
    const { r, pr, stub, runnerTemp } = await runStep(false);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('::notice::no ANTHROPIC_API_KEY secret: collecting only, the judge is skipped');
    expect(readFileSync(join(stub, 'args'), 'utf8').split('\n').slice(0, 3)).toEqual(['pr', 'comment', '42']);
    const body = readFileSync(join(stub, 'body.md'), 'utf8');
    expect(body).toContain('### judgeloop: `full_pass`');
    expect(body).toContain('| build | tests | lint | diff | speed | composite |');
    // 3/3: the base's node --test ran, not the PR's `echo "ok 99 tests passed"`.
    expect(body).toMatch(/\| 100 \| 100 \(2\/2\) \| 100 \|/);
    expect(body).toContain('_Judge skipped: no ANTHROPIC_API_KEY secret._');
    const fb = JSON.parse(
      readFileSync(join(runnerTemp, 'judgeloop', 'state', 'feedback', `pr-42-${pr.head.slice(0, 12)}.json`), 'utf8'),
    );
    expect(fb.commands.test).toBe('node --test test/');
    expect(gitIn(pr.workspace, 'status', '--porcelain', '--ignored')).toBe('');
  }, 120_000);

  it('with a key: judges, and the comment carries the verdict and the findings', async () => {
    const before = server.requests.length;
    const { r, stub } = await runStep(true);
    expect(r.code, r.stderr).toBe(0);
    expect(server.requests.length).toBe(before + 1);
    const body = readFileSync(join(stub, 'body.md'), 'utf8');
    expect(body).toContain('#### Judge: `pass`');
    expect(body).toContain('Implements add as asked with a focused test.');
    expect(body).toContain('| minor | edge_cases | src/add.ts: no test for negative numbers |');
  }, 120_000);
});
