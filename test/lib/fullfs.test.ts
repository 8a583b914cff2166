// A full file system, for real: a small tmpfs filled up (when this process may mount one) and a file-size limit
// (ulimit -f) on a child process. Whatever fails, the previous state stays byte-identical, no `.tmp` is left, and
// the command exits 1 with one line naming the file and the cause.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StateStore } from '../../lib/store/store.js';
import { agentWorktree, BIN, COMMANDS, makeProject, runRecord, writeRecord } from '../collector/_project.js';
import { fullFileSystems, type FullFs } from '../helpers/fullfs.js';
import { invalidStateFiles, tempsUnder } from '../helpers/state.js';
import { makeFeedback } from '../templates/_fixtures.js';

const CHILD = join(import.meta.dirname, '_store-child.mjs');
const systems = fullFileSystems();
const cleanups: (() => void)[] = [];
afterAll(() => {
  for (const c of cleanups) c();
  for (const s of systems) s.cleanup();
});

function run(fs: FullFs, argv: string[], env: Record<string, string> = {}) {
  const [cmd, ...args] = fs.wrap(argv);
  const r = spawnSync(cmd!, args, { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const child = (fs: FullFs, scenario: string, state: string, ...args: string[]) =>
  run(fs, [process.execPath, CHILD, scenario, state, ...args]);
/** Feedback records bd-<from>… (n of them), as the child's `index` takes them. */
const feedbacks = (from: number, n: number) =>
  JSON.stringify(
    Array.from({ length: n }, (_, i) =>
      makeFeedback({
        bead: `bd-${String(from + i).padStart(4, '0')}`,
        template: 't1',
        outcome: 'full_pass',
        judge: 0.8,
        issues: [{ description: 'x'.repeat(150) }],
      }),
    ),
  );

/** Every file under `dir` (the tmpfs filler aside) with its bytes. */
function bytesOf(files: string[]): Record<string, string> {
  return Object.fromEntries(files.map((f) => [f, existsSync(f) ? readFileSync(f).toString('base64') : '(missing)']));
}

const causeLine = (fs: FullFs) =>
  fs.code === 'ENOSPC' ? 'no space left on device \\(ENOSPC\\)' : 'file too large \\(EFBIG\\)';

describe.each(systems.map((s) => [s.mode, s] as const))('on a full file system (%s)', (_mode, fs) => {
  it('bin/collect keeps the previous feedback record byte-identical, leaves no .tmp and exits 1 with one line', () => {
    const p = makeProject();
    cleanups.push(() => {
      rmSync(p.repo, { recursive: true, force: true });
      rmSync(p.dir, { recursive: true, force: true });
    });
    const state = join(fs.dir, `state-collect`);
    agentWorktree(p, 'a', { commit: { 'NOTES.md': 'a line the build prints into the record\n'.repeat(80) } });
    const rec = writeRecord(p, 'run', runRecord({ commands: { ...COMMANDS, build: 'cat NOTES.md' } }));
    const env = { JUDGELOOP_STATE_DIR: state };
    const first = run(fs, [BIN, '--quiet', rec], env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const record = join(state, 'feedback', 'bd-1.json');
    const before = readFileSync(record);
    // Bigger than the room left: the write starts and comes up short (a page on tmpfs, 2 KiB under the limit).
    expect(before.length).toBeGreaterThan(4096);
    const files = [record, join(state, 'index', 'feedback.jsonl')];
    const was = bytesOf(files);

    writeFileSync(join(p.dir, 'wt-a', 'new.txt'), 'an uncommitted file changes the record\n');
    // ulimit: room for the sealed checkout's files, not for the whole record.
    fs.fill(fs.mode === 'tmpfs' ? 4096 : before.length - 256);
    try {
      const second = run(fs, [BIN, '--quiet', rec], env);
      expect(second.code).toBe(1);
      expect(second.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(second.stderr).toMatch(
        new RegExp(
          `cannot write ${record.replace(/[.]/g, '\\.')}: ${causeLine(fs)}; the previous version is unchanged`,
        ),
      );
      expect(bytesOf(files)).toEqual(was);
      expect(tempsUnder(state)).toEqual([]);
    } finally {
      fs.free();
    }
    const third = run(fs, [BIN, '--quiet', rec], env);
    expect(third.code).toBe(0);
    expect(readFileSync(record).equals(before)).toBe(false);
    expect(invalidStateFiles(state)).toEqual([]);
  });

  it('bin/score-templates keeps the previous scores byte-identical and exits 1 with one line', () => {
    const state = join(fs.dir, 'state-scores');
    expect(child(fs, 'index', state, feedbacks(0, 6)).code).toBe(0);
    const bin = join(import.meta.dirname, '..', '..', 'bin', 'score-templates');
    const env = { JUDGELOOP_STATE_DIR: state };
    expect(run(fs, [bin], env).code).toBe(0);
    const scores = join(state, 'scores', 'templates.json');
    const was = bytesOf([scores]);
    expect(child(fs, 'index', state, feedbacks(6, 2)).code).toBe(0);
    fs.fill(fs.mode === 'tmpfs' ? 0 : 1024);
    try {
      const r = run(fs, [bin], env);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^cannot write ${state}/\\S+: ${causeLine(fs)}; [^\\n]*\\n$`));
      expect(bytesOf([scores])).toEqual(was);
      expect(tempsUnder(state)).toEqual([]);
    } finally {
      fs.free();
    }
    expect(run(fs, [bin], env).code).toBe(0);
    expect(bytesOf([scores])).not.toEqual(was);
    expect(invalidStateFiles(state)).toEqual([]);
  });

  it('a ledger append that does not fit leaves the log byte-identical (no half row) and reports the file', () => {
    const state = join(fs.dir, 'state-ledger');
    const store = new StateStore(state);
    const row = (bead: string, key = '') => ({ type: 'call', at: '2026-01-01T00:00:00.000Z', bead, cache_key: key });
    // Rows that end 60 bytes short of a page: the next row starts in the page's slack and comes up short.
    let size = 0;
    for (let i = 0; size < 4036 - 200; i++)
      (size += Buffer.byteLength(JSON.stringify(row(`bd-${i}`)) + '\n')),
        store.appendLine('judge-ledger', 'judge', row(`bd-${i}`));
    const pad = 4036 - size - Buffer.byteLength(JSON.stringify(row('bd-pad')) + '\n');
    store.appendLine('judge-ledger', 'judge', row('bd-pad', 'k'.repeat(pad)));
    const file = store.path('judge-ledger', 'judge');
    const was = readFileSync(file);
    expect(was.length).toBe(4036);

    fs.fill(fs.mode === 'tmpfs' ? 0 : 4096);
    try {
      const r = child(fs, 'append-ledger', state, JSON.stringify(row('bd-late', 'z'.repeat(500))));
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        new RegExp(`^cannot write ${file.replace(/[.]/g, '\\.')}: ${causeLine(fs)}; nothing was appended\\n$`),
      );
      expect(readFileSync(file).equals(was)).toBe(true);
    } finally {
      fs.free();
    }
    expect(child(fs, 'append-ledger', state, JSON.stringify(row('bd-after'))).code).toBe(0);
    const { rows, bad } = store.readLines<{ bead: string }>('judge-ledger', 'judge');
    expect(bad).toEqual([]);
    expect(rows.at(-1)!.bead).toBe('bd-after');
  });

  it('feedback index: appends and a compaction that fail leave both index files byte-identical and no .tmp', () => {
    const state = join(fs.dir, 'state-index');
    expect(child(fs, 'index', state, feedbacks(0, 12)).code).toBe(0);
    const idx = (n: string) => join(state, 'index', n);
    const files = [idx('feedback.jsonl'), idx('feedback.compacted.jsonl')];
    const was = bytesOf(files);

    fs.fill(fs.mode === 'tmpfs' ? 0 : 1024);
    try {
      const c = child(fs, 'compact', state);
      expect(c.code).toBe(1);
      expect(c.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(c.stderr).toMatch(new RegExp(`^cannot write ${state}/.*: ${causeLine(fs)}`));
      expect(bytesOf(files)).toEqual(was);
      expect(tempsUnder(state)).toEqual([]);
    } finally {
      fs.free();
    }
    expect(child(fs, 'compact', state).code).toBe(0);
    expect(child(fs, 'index', state, feedbacks(12, 2)).code).toBe(0);
    expect(invalidStateFiles(state)).toEqual([]);
    expect(readFileSync(idx('feedback.compacted.jsonl'), 'utf8').trim().split('\n')).toHaveLength(12);
  });
});
