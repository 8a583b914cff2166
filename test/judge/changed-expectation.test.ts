// A task that really changes tested behaviour: the agent rewrites a base test's expectation. The graded run (base
// tests) fails it, the agent's own run passes it: a changed expectation, and the judge is shown both versions.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../scripts/judge.js';
import { StateStore } from '../../lib/store/store.js';
import type { Feedback } from '../../lib/schema/types.generated.js';
import { gitIn, makeRepo, tempDir, writeTree } from '../helpers/repo.js';
import { captureIo } from './helpers/feedback.js';
import { goodReply, startMessagesServer, type MessagesServer } from './helpers/messages-server.js';

let server: MessagesServer;
beforeAll(async () => {
  server = await startMessagesServer({ kind: 'reply', text: goodReply() });
});
afterAll(() => server.close());

describe('a changed expectation', () => {
  it('is recorded with both assertions and file:line, and both versions reach the judge', async () => {
    const dir = tempDir('judgeloop-changed-');
    const repo = makeRepo({
      'greet.py': 'def greet(name):\n    return "Hello " + name\n',
      'test_greet.py': 'from greet import greet\n\n\ndef test_greet():\n    assert greet("Ann") == "Hello Ann"\n',
    });
    const wt = join(dir, 'wt');
    gitIn(repo, 'worktree', 'add', '-q', '-b', 'agent/a', wt);
    writeTree(wt, {
      'greet.py': 'def greet(name):\n    return "Hello, " + name + "!"\n',
      'test_greet.py': 'from greet import greet\n\n\ndef test_greet():\n    assert greet("Ann") == "Hello, Ann!"\n',
    });
    const record = join(dir, 'run.json');
    writeFileSync(
      record,
      JSON.stringify({
        schema_version: '1.0.0',
        bead: 'bd-greet',
        task: { id: 'greet', prompt: 'Greet with a comma and an exclamation mark' },
        agent: { slug: 'a' },
        template: 't',
        worktree: wt,
        base_ref: 'main',
        started_at: '2026-01-01T10:00:00Z',
        completed_at: '2026-01-01T10:01:00Z',
        exit_code: 0,
        status: 'completed',
        commands: {
          build: null,
          test: 'python3 -m pytest -p no:cacheprovider -p no:hypothesispytest -p no:benchmark',
          lint: null,
          typecheck: null,
        },
      }),
    );
    const state = join(dir, 'state');
    const io = captureIo({
      JUDGE_ENABLED: 'true',
      ANTHROPIC_API_KEY: 'sk-test-dummy',
      ANTHROPIC_BASE_URL: server.url,
      JUDGELOOP_STATE_DIR: state,
    });
    expect(await run([record], io)).toBe(0);
    const fb = new StateStore(state).read<Feedback>('feedback', 'bd-greet')!;
    expect(fb.checks.test?.tests).toMatchObject({ failed: 1 });
    expect(fb.own_tests?.check?.tests).toMatchObject({ passed: 1, failed: 0 });
    expect(fb.changed_expectations).toEqual([
      {
        test: 'test_greet.py::test_greet',
        file: 'test_greet.py',
        line: 4,
        base_line: 4,
        detail:
          'fails as the trusted revision tests it (assert greet("Ann") == "Hello Ann") and passes as the agent rewrote it (assert greet("Ann") == "Hello, Ann!")',
      },
    ]);
    const sent = JSON.stringify(server.requests.at(-1)!.body);
    expect(sent).toContain('changed_expectations');
    expect(sent).toContain('Hello Ann');
    expect(sent).toContain('Hello, Ann!');
  });
});
