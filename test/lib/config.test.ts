import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deepMerge, loadConfig } from '../../lib/config/config.js';
import { readEnv, unknownVariableWarnings } from '../../lib/base/env.js';
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
    expect(() => loadConfig({ env: { JUDGE_PHASE: '7' } })).toThrow(/^JUDGE_PHASE="7" \(environment\): must be <= 4$/);
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

  it('blames the layer the bad value came from: the variable, not a good judgeloop.json; the file and its path; the flag', () => {
    const dir = tempDir();
    const file = join(dir, 'judgeloop.json');
    writeFileSync(file, JSON.stringify({ judge: { phase: 2 } }));
    expect(() => loadConfig({ env: { JUDGE_PHASE: '5' }, configFile: file })).toThrow(
      /^JUDGE_PHASE="5" \(environment\): must be <= 4$/,
    );
    expect(() => loadConfig({ env: { JUDGE_BACKEND: 'x' }, configFile: file })).toThrow(
      /^JUDGE_BACKEND="x" \(environment\): must be one of "sdk", "claude-cli"$/,
    );
    writeFileSync(file, JSON.stringify({ judge: { phase: 9 } }));
    expect(() => loadConfig({ env: { JUDGE_PHASE: '3' }, configFile: file })).not.toThrow();
    expect(() => loadConfig({ env: {}, configFile: file })).toThrow(`config file ${file}: /judge/phase: must be <= 4`);
    expect(() =>
      loadConfig({
        env: {},
        overrides: { judge: { phase: 8 } },
        flagNames: { '/judge/phase': '--phase' },
      }),
    ).toThrow(/^--phase: must be <= 4$/);
  });

  it('warns of an unknown JUDGE_* or JUDGELOOP_* variable with the closest known name', () => {
    expect(
      unknownVariableWarnings({
        JUDGE_ENABLE: 'true',
        JUDGELOOP_STATEDIR: 'x',
        JUDGE_ENABLED: '1',
        JUDGE_XYZZY: '1',
        OTHER: '1',
      }),
    ).toEqual([
      'warning: JUDGELOOP_STATEDIR is not a judgeloop variable (did you mean JUDGELOOP_STATE_DIR?); ignored',
      'warning: JUDGE_ENABLE is not a judgeloop variable (did you mean JUDGE_ENABLED?); ignored',
      'warning: JUDGE_XYZZY is not a judgeloop variable; ignored',
    ]);
    expect(unknownVariableWarnings({ JUDGELOOP_RUN_MARK: '1-a', JUDGE_MODEL: 'opus' })).toEqual([]);
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
