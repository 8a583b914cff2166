import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deepMerge, loadConfig } from '../../lib/config/config.js';
import { readEnv } from '../../lib/base/env.js';
import { tempDir } from '../helpers/repo.js';

describe('loadConfig', () => {
  it('applies defaults < file < JUDGE_* env < flags', () => {
    const dir = tempDir();
    const file = join(dir, 'judgeloop.json');
    writeFileSync(
      file,
      JSON.stringify({ judge: { model: 'sonnet', max_per_hour: 5 }, collector: { commands: { test: 'npm test' } } }),
    );
    const fromFile = loadConfig({ env: {}, configFile: file });
    expect(fromFile.judge.model).toBe('sonnet');
    expect(fromFile.collector.commands.test).toBe('npm test');
    expect(fromFile.collector.timeouts_seconds.test).toBe(300);
    const withEnv = loadConfig({
      env: { JUDGELOOP_CONFIG: file, JUDGE_MODEL: 'opus', JUDGE_ENABLED: 'true', JUDGE_PHASE: '3' },
    });
    expect(withEnv.judge).toMatchObject({ model: 'opus', enabled: true, phase: 3, max_per_hour: 5 });
    const withFlags = loadConfig({
      env: { JUDGE_MODEL: 'opus' },
      configFile: file,
      overrides: { judge: { model: 'haiku' } },
    });
    expect(withFlags.judge.model).toBe('haiku');
  });

  it('rejects bad values with the variable or JSON path named', () => {
    expect(() => loadConfig({ env: { JUDGE_ENABLED: 'maybe' } })).toThrow(
      /JUDGE_ENABLED="maybe": expected true or false/,
    );
    expect(() => loadConfig({ env: { JUDGE_PHASE: '7' } })).toThrow(/\/judge\/phase: must be <= 4/);
    const dir = tempDir();
    writeFileSync(join(dir, 'bad.json'), '{"scoring": {"weights": {"build": -1}}}');
    expect(() => loadConfig({ env: {}, configFile: join(dir, 'bad.json') })).toThrow(
      /\/scoring\/weights\/build: must be >= 0/,
    );
    writeFileSync(join(dir, 'broken.json'), '{');
    expect(() => loadConfig({ env: {}, configFile: join(dir, 'broken.json') })).toThrow(/broken\.json: not valid JSON/);
    expect(() => loadConfig({ env: {}, configFile: join(dir, 'missing.json') })).toThrow(
      /missing\.json: cannot read \(ENOENT\)/,
    );
  });

  it('merges objects key by key and replaces arrays', () => {
    expect(deepMerge({ a: { b: 1, c: 2 }, l: [1, 2] }, { a: { c: 3 }, l: [9] })).toEqual({ a: { b: 1, c: 3 }, l: [9] });
  });
});

describe('readEnv', () => {
  it('reads only allow-listed variables and treats empty as unset', () => {
    expect(readEnv({ JUDGE_MODEL: 'opus', JUDGE_PHASE: '', SECRET: 'x', PATH: '/bin' })).toEqual({
      JUDGE_MODEL: 'opus',
    });
  });
});

describe('loadConfig start-up shortcut', () => {
  it('untouched defaults are the bytes the build validated; anything merged over them is validated', async () => {
    const { createHash } = await import('node:crypto');
    const { readFileSync } = await import('node:fs');
    const { validate, validatedDefaultsSha256 } = await import('../../lib/schema/schema.js');
    const text = readFileSync(join(import.meta.dirname, '..', '..', 'config', 'defaults.json'));
    // Needs `npm run build` from the current schemas and defaults (as the tests spawning bin/* do).
    expect(validatedDefaultsSha256()).toBe(createHash('sha256').update(text).digest('hex'));
    const cfg = loadConfig({ env: {} });
    expect(cfg).toEqual(JSON.parse(text.toString('utf8')));
    expect(validate('config', cfg).ok).toBe(true);
    // An override that equals nothing in the defaults still goes through the validator.
    expect(() => loadConfig({ env: {}, overrides: { collector: { baseline_setup: '' } } })).toThrow(
      /\/collector\/baseline_setup/,
    );
  });
});
