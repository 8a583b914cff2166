import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CorruptStateError, StateStore } from '../../lib/store/store.js';
import { tempDir } from '../helpers/repo.js';

const baseline = (key: string) => ({
  schema_version: '1.0.0',
  key,
  commit: 'a'.repeat(40),
  commands: { build: null, test: 'true', lint: null, typecheck: null },
  computed_at: '2026-11-21T10:00:00Z',
  checks: { build: null, test: null, lint: null, typecheck: null },
});

describe('StateStore', () => {
  it('writes validated files atomically and reads them back', () => {
    const store = new StateStore(tempDir());
    const file = store.write('baselines', 'abcdef0123456789', baseline('abcdef0123456789'));
    expect(JSON.parse(readFileSync(file, 'utf8')).key).toBe('abcdef0123456789');
    expect(store.read('baselines', 'abcdef0123456789')).toEqual(baseline('abcdef0123456789'));
    expect(readdirSync(store.dir('baselines'))).toEqual(['abcdef0123456789.json']);
    expect(store.read('baselines', 'fedcba9876543210')).toBeNull();
  });

  it('refuses to write invalid data and leaves the existing file as it was', () => {
    const store = new StateStore(tempDir());
    const file = store.write('baselines', 'abcdef0123456789', baseline('abcdef0123456789'));
    const before = readFileSync(file, 'utf8');
    expect(() =>
      store.write('baselines', 'abcdef0123456789', { ...baseline('abcdef0123456789'), commit: 'nope' }),
    ).toThrow(/\/commit/);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('rejects unsafe ids', () => {
    const store = new StateStore(tempDir());
    for (const id of ['../../x', 'a/b', '.hidden', '', '..'])
      expect(() => store.path('feedback', id)).toThrow(/not safe as a file name/);
  });

  it('names the file and the JSON path of a corrupt or invalid file, and readAll keeps going', () => {
    const store = new StateStore(tempDir());
    store.write('baselines', 'abcdef0123456789', baseline('abcdef0123456789'));
    mkdirSync(store.dir('baselines'), { recursive: true });
    writeFileSync(join(store.dir('baselines'), '0000000000000001.json'), '{"key": ');
    writeFileSync(
      join(store.dir('baselines'), '0000000000000002.json'),
      JSON.stringify({ ...baseline('0000000000000002'), commit: 42 }),
    );
    expect(() => store.read('baselines', '0000000000000001')).toThrow(CorruptStateError);
    expect(() => store.read('baselines', '0000000000000001')).toThrow(/0000000000000001\.json: not valid JSON/);
    expect(() => store.read('baselines', '0000000000000002')).toThrow(
      /0000000000000002\.json: \/commit: must be string/,
    );
    const all = store.readAll('baselines');
    expect(all.map((r) => [r.id, 'error' in r])).toEqual([
      ['0000000000000001', true],
      ['0000000000000002', true],
      ['abcdef0123456789', false],
    ]);
  });

  it('serialises read-modify-write across real processes (no lost update)', async () => {
    const root = tempDir();
    // The built store (the one the bins run; the suite's set-up checks dist/ is fresh): plain node, no tsx to load.
    const script = `
      import { StateStore } from ${JSON.stringify(new URL('../../dist/lib/store/store.js', import.meta.url).pathname)};
      const store = new StateStore(${JSON.stringify(root)});
      await store.withLock('counter', async () => {
        const fs = await import('node:fs');
        const f = ${JSON.stringify(join(root, 'counter.txt'))};
        const n = fs.existsSync(f) ? Number(fs.readFileSync(f, 'utf8')) : 0;
        await new Promise((r) => setTimeout(r, 5));
        fs.writeFileSync(f, String(n + 1));
      });
    `;
    const n = 12;
    const codes = await Promise.all(
      Array.from(
        { length: n },
        () =>
          new Promise<number>((resolve) => {
            const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
              stdio: 'inherit',
            });
            child.on('close', (code) => resolve(code ?? -1));
          }),
      ),
    );
    expect(codes).toEqual(Array(n).fill(0));
    expect(readFileSync(join(root, 'counter.txt'), 'utf8')).toBe(String(n));
  });
});

describe('StateStore.appendLine', () => {
  it('closes a half-written last line so the next row is kept whole', () => {
    const store = new StateStore(tempDir());
    const row = { type: 'slot', at: '2026-11-21T10:00:00.000Z', bead: 'bd-1', pid: 1 };
    store.appendLine('judge-ledger', 'judge', row);
    writeFileSync(
      store.path('judge-ledger', 'judge'),
      readFileSync(store.path('judge-ledger', 'judge'), 'utf8') + '{"type":"slot","at":"2026-',
    );
    store.appendLine('judge-ledger', 'judge', { ...row, bead: 'bd-2' });
    const { rows, bad } = store.readLines<{ bead: string }>('judge-ledger', 'judge');
    expect(rows.map((r) => r.bead)).toEqual(['bd-1', 'bd-2']);
    expect(bad.map((b) => b.line)).toEqual([2]);
  });
});
