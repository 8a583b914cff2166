// The one writer (lib/store/state-write.ts) on real files: errors are one line naming the file, a kind folder
// on another file system is still written atomically, and the temporary file never outlives a write.
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StateWriteError, writeFileAtomic } from '../../lib/store/state-write.js';
import { StateStore } from '../../lib/store/store.js';
import { tmpfsFullFs } from '../helpers/fullfs.js';
import { tempDir } from '../helpers/repo.js';
import { tempsUnder } from '../helpers/state.js';

const cleanups: (() => void)[] = [];
afterAll(() => cleanups.forEach((c) => c()));
const temp = () => {
  const d = tempDir();
  cleanups.push(() => rmSync(d, { recursive: true, force: true }));
  return d;
};
const row = { type: 'slot', at: '2026-01-01T00:00:00.000Z', bead: 'bd-1' };

describe('state writes', () => {
  it('a write that cannot happen is a StateWriteError naming the file and the cause; the old file and .tmp are as they were', () => {
    const root = temp();
    const store = new StateStore(root);
    // A file where the kind's folder should be: mkdir fails before any temporary file exists.
    writeFileSync(join(root, 'scores'), 'not a folder');
    expect(() => writeFileAtomic(join(root, 'scores', 'templates.json'), '{}', store.atomic())).toThrow(
      new StateWriteError(
        join(root, 'scores', 'templates.json'),
        'EEXIST',
        `cannot write ${join(root, 'scores', 'templates.json')}: a file is where a folder should be (EEXIST); the previous version is unchanged`,
      ),
    );
    expect(readFileSync(join(root, 'scores'), 'utf8')).toBe('not a folder');
    // A folder where the file should be: the temporary file is written in full, the rename fails, the temp goes.
    mkdirSync(join(root, 'triggers', 'x.json', 'inside'), { recursive: true });
    let err: unknown;
    try {
      writeFileAtomic(join(root, 'triggers', 'x.json'), '{"a":1}', store.atomic());
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StateWriteError);
    expect((err as StateWriteError).code).toMatch(/^(EISDIR|ENOTEMPTY)$/);
    expect((err as Error).message).toMatch(
      new RegExp(
        `^cannot write ${join(root, 'triggers', 'x.json')}: .* \\((EISDIR|ENOTEMPTY)\\); the previous version is unchanged$`,
      ),
    );
    expect(readdirSync(join(root, '.tmp'))).toEqual([]);
    expect(readdirSync(join(root, 'triggers', 'x.json'))).toEqual(['inside']);
  });

  it('a kind folder on another file system (a symlink) is written in place: rename(2) cannot cross file systems', () => {
    const fs = tmpfsFullFs(512);
    if (!fs) expect.fail('mounting a tmpfs needs root: run the suite as root, as .ci/run does');
    cleanups.push(() => fs.cleanup());
    const root = temp();
    mkdirSync(join(fs.dir, 'feedback-elsewhere'));
    symlinkSync(join(fs.dir, 'feedback-elsewhere'), join(root, 'judgments'));
    const file = join(root, 'judgments', 'x.json');
    writeFileAtomic(file, '{"a":1}\n', new StateStore(root).atomic());
    expect(readFileSync(file, 'utf8')).toBe('{"a":1}\n');
    expect(tempsUnder(root)).toEqual([]);
    expect(tempsUnder(fs.dir)).toEqual([]);
  });

  it('appendLines appends a batch all or none: one invalid row and nothing is written', () => {
    const store = new StateStore(temp());
    store.appendLines('judge-ledger', 'judge', [row, { ...row, bead: 'bd-2' }]);
    const before = readFileSync(store.path('judge-ledger', 'judge'), 'utf8');
    expect(() =>
      store.appendLines('judge-ledger', 'judge', [
        { ...row, bead: 'bd-3' },
        { ...row, type: 'nope' },
      ]),
    ).toThrow(/refusing to append an invalid judge-ledger row/);
    expect(readFileSync(store.path('judge-ledger', 'judge'), 'utf8')).toBe(before);
    expect(store.readLines<{ bead: string }>('judge-ledger', 'judge').rows.map((r) => r.bead)).toEqual([
      'bd-1',
      'bd-2',
    ]);
  });

  it('appendLine closes a half-written last line before its row and fsyncs a new file into its folder', () => {
    const root = temp();
    const store = new StateStore(root);
    mkdirSync(store.dir('judge-ledger'), { recursive: true });
    writeFileSync(store.path('judge-ledger', 'judge'), `${JSON.stringify(row)}\n{"type":"sl`);
    store.appendLine('judge-ledger', 'judge', { ...row, bead: 'bd-2' });
    const { rows, bad } = store.readLines<{ bead: string }>('judge-ledger', 'judge');
    expect(rows.map((r) => r.bead)).toEqual(['bd-1', 'bd-2']);
    expect(bad.map((b) => b.line)).toEqual([2]);
  });
});
