// One git process per question: answers fixed by the objects they name are asked once per object store (answerKey), and
// a collect of a run whose checks are `true` asks no question twice (git counted through a logging shim on PATH).
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testFileTexts } from '../../lib/change/texts.js';
import { answerKey, repoObjects, viewAnswerKey } from '../../lib/git/git.js';
import { findOnPath } from '../../lib/process/sandbox.js';
import { loadRunRecord } from '../../lib/collector/run-record.js';
import { loadConfig } from '../../lib/config/config.js';
import { gather } from '../../lib/judge/gather.js';
import type { Feedback } from '../../lib/schema/types.generated.js';
import { agentWorktree, BIN, endedNow, makeProject, readJson, runRecord, writeRecord } from '../collector/_project.js';
import { gitIn } from '../helpers/repo.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

describe('answerKey', () => {
  it('names the questions whose answer the objects fix, and only those', () => {
    for (const args of [
      ['rev-parse', '--verify', `${A}^{tree}`],
      ['rev-parse', `${A}^{commit}`],
      ['ls-tree', '-r', '-z', '--full-tree', A],
      ['cat-file', 'blob', `${A}:src/a.py`],
      ['diff', '--numstat', '-z', A, B],
    ])
      expect(answerKey('/r', args), args.join(' ')).not.toBeNull();
    for (const args of [
      ['rev-parse', '--verify', 'HEAD^{commit}'],
      ['rev-parse', `main^{tree}`],
      ['rev-parse', '--short', `${A}^{tree}`],
      ['ls-tree', '-r', 'HEAD'],
      ['ls-files', '-z'],
      ['cat-file', 'blob', `HEAD:src/a.py`],
      ['diff', A],
      ['diff', A, B, '--', 'x'],
      ['status', '--porcelain'],
      ['write-tree'],
    ])
      expect(answerKey('/r', args), args.join(' ')).toBeNull();
  });
  it('asks `rev-parse --verify X^{tree}` and `rev-parse X^{tree}` as one question, per repository', () => {
    const k = answerKey('/r', ['rev-parse', '--verify', `${A}^{tree}`]);
    expect(answerKey('/r', ['rev-parse', `${A}^{tree}`])).toBe(k);
    expect(answerKey('/other', ['rev-parse', `${A}^{tree}`])).not.toBe(k);
    expect(answerKey('/r', ['rev-parse', `${A}^{commit}`])).not.toBe(k);
  });
});

describe('viewAnswerKey', () => {
  it('keeps a grep of full ids in a view, not one of a name or with a flag that reads a file', () => {
    const grep = ['grep', '-z', '-n', '-I', '-e', '', A, '--', 'test/a.test.mjs'];
    expect(viewAnswerKey('/r/.git/objects', grep)).not.toBeNull();
    expect(viewAnswerKey('/other/.git/objects', grep)).not.toBe(viewAnswerKey('/r/.git/objects', grep));
    for (const args of [
      ['grep', '-e', 'x', 'HEAD', '--', 'a'],
      ['grep', '-f', 'patterns', A],
      ['grep', '--open-files-in-pager', '-e', 'x', A],
      ['grep', '-e', 'x', '--', 'a'],
      ['ls-tree', A],
    ])
      expect(viewAnswerKey('/r/.git/objects', args), args.join(' ')).toBeNull();
  });
});

/** `PATH` with a git that logs `<cwd>\t<args>` to the returned file first (restored by the returned function). */
function logGit(dir: string): { log: string; restore: () => void } {
  const real = findOnPath('git');
  if (!real) throw new Error('git is not installed: apt-get install git');
  const shim = join(dir, 'shim');
  mkdirSync(shim);
  const log = join(dir, 'git.log');
  writeFileSync(log, '');
  writeFileSync(join(shim, 'git'), `#!/bin/sh\nprintf '%s\\t%s\\n' "$PWD" "$*" >> ${log}\nexec ${real} "$@"\n`);
  chmodSync(join(shim, 'git'), 0o755);
  const before = process.env.PATH;
  process.env.PATH = `${shim}:${before}`;
  return { log, restore: () => void (process.env.PATH = before) };
}

const logged = (log: string) => readFileSync(log, 'utf8').split('\n').filter(Boolean).length;

describe('two solutions of one repository (two worktrees, one object store)', () => {
  it("the second's questions about the base's objects start no git process: the answers are kept per object store", async () => {
    const p = makeProject();
    const wts = [agentWorktree(p, 'a'), agentWorktree(p, 'b')];
    const base = gitIn(p.repo, 'rev-parse', 'main');
    const { log, restore } = logGit(p.dir);
    try {
      const asked: number[] = [];
      for (const wt of wts) {
        await repoObjects(wt); // as every collect of a worktree learns it first (worktreeInfo)
        const before = logged(log);
        // What each solution's findings read of the base: its tree, the listing, the test files' text (one grep).
        const texts = await testFileTexts(wt, base, (f) => f.startsWith('test/'));
        expect(texts.map((t) => t.path)).toEqual(['test/add.test.mjs']);
        asked.push(logged(log) - before);
      }
      // The first asks the tree, the listing and the grep; the second none of them (3 before the store key).
      expect(asked).toEqual([3, 0]);
    } finally {
      restore();
    }
  });
});

describe('a collect of a run whose checks are `true`', () => {
  it('starts each git question once (write-tree aside: it writes two different indexes)', () => {
    const real = findOnPath('git');
    if (!real) throw new Error('git is not installed: apt-get install git');
    const p = makeProject();
    const wt = agentWorktree(p, 'a');
    const rec = writeRecord(
      p,
      'bd-q',
      runRecord({
        bead: 'bd-q',
        worktree: wt,
        // Completed now, whatever the machine's clock says: the sweep of other runs' old candidate refs (one
        // for-each-ref) runs only for a run younger than collector.candidate_ref_max_age_days, so a fixed date made
        // the count depend on the clock (12 here, 13 on a machine whose clock was earlier).
        ...endedNow(),
        commands: { build: 'true', test: 'true', lint: 'true', typecheck: 'true' },
      }),
    );
    const shim = join(p.dir, 'shim');
    mkdirSync(shim);
    const log = join(p.dir, 'git.log');
    writeFileSync(join(shim, 'git'), `#!/bin/sh\nprintf '%s\\t%s\\n' "$PWD" "$*" >> ${log}\nexec ${real} "$@"\n`);
    chmodSync(join(shim, 'git'), 0o755);
    const env: NodeJS.ProcessEnv = { ...process.env, JUDGELOOP_STATE_DIR: p.state, NO_COLOR: '1' };
    const first = spawnSync(BIN, ['--quiet', rec], { cwd: p.dir, env, encoding: 'utf8' });
    expect(first.status, first.stderr).toBe(0);
    writeFileSync(log, '');
    // The baseline is cached now: what remains is what every collect asks.
    const again = spawnSync(BIN, ['--quiet', rec], {
      cwd: p.dir,
      env: { ...env, PATH: `${shim}:${env.PATH}` },
      encoding: 'utf8',
    });
    expect(again.status, again.stderr).toBe(0);
    const asked = readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => l.replace(/(-c \S+ )+/, '').replace(/\/tmp\/[^\t ]*(\/(tree|view\.git))/g, '<tmp>$1'));
    const twice = asked.filter((q, i) => asked.indexOf(q) !== i && !q.endsWith('\twrite-tree'));
    expect(twice).toEqual([]);
    // Printed, so the figure in the design page comes from a run: 35 before the answers were kept (issue 35); 13
    // before a new file's text was read from its patch (the gaming check's `cat-file blob` of the one file added).
    console.log(`git processes in a collect of a run whose checks are \`true\`: ${asked.length}`);
    expect(asked.length, asked.join('\n')).toBeLessThanOrEqual(12);
    expect(asked.filter((q) => q.includes('\tcat-file '))).toEqual([]);
    measured = { p, rec };
  }, 60_000);
});

/** The run the collect above measured (its feedback written), for the judge's gather below. */
let measured: { p: ReturnType<typeof makeProject>; rec: string } | null = null;

describe("the judge's gather of a run measured by an earlier collect", () => {
  it('asks the worktree, its base and the measured trees in one rev-parse, then the diff: 3 processes (was 9)', async () => {
    if (!measured) throw new Error('the collect above did not run: run the whole file');
    const { p, rec } = measured;
    const loaded = loadRunRecord(rec, p.dir);
    const feedback = readJson<Feedback>(join(p.state, 'feedback', 'bd-q.json'));
    mkdirSync(join(p.dir, 'judge'));
    const { log, restore } = logGit(join(p.dir, 'judge'));
    try {
      const g = await gather(loaded, loadConfig({ env: {} }), feedback, []);
      expect(g.headTree).toBe(feedback.head!.tree);
      const asked = readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => l.replace(/^[^\t]*\t(-c \S+ )*/, '').split(' ')[0]);
      // The safe recipe's config listing, one rev-parse (worktreeProblem, resolveCommit, the tree still there, the
      // object store: four questions, six processes before), and the patch (its trees' ids kept from the rev-parse).
      expect(asked).toEqual(['config', 'rev-parse', 'diff']);
    } finally {
      restore();
    }
  }, 30_000);
});
