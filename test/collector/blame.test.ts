// Whose failure it is (blame.ts) and what the baseline's key covers (baseline.ts): pure rules on real-shaped records.
import { describe, expect, it } from 'vitest';
import { causeLine, infraCause } from '../../lib/collector/blame.js';
import { baselineKey } from '../../lib/collector/baseline.js';
import { loadConfig } from '../../lib/config/config.js';
import type { Baseline, Check } from '../../lib/schema/types.generated.js';

const check = (status: Check['status'], exit: number | null, text = ''): Check => ({
  status,
  exit_code: exit,
  signal: null,
  duration_ms: 5,
  source: 'collector',
  output: { text, truncated: false, bytes: text.length },
});
const none = { build: null, test: null, lint: null, typecheck: null };
const COMMANDS = { build: 'npm run build', test: 'npm test', lint: null, typecheck: null };
const baseline = (checks: Partial<Baseline['checks']>, setup?: Baseline['setup']): Baseline => ({
  schema_version: '1.0.0',
  key: 'a'.repeat(32),
  commit: 'b'.repeat(40),
  commands: COMMANDS,
  computed_at: '2026-11-27T00:00:00Z',
  duration_ms: 1,
  ...(setup ? { setup } : {}),
  checks: { ...none, ...checks },
});
const TSC = '\n> proj@1.0.0 build\n> tsc\n\nsh: 1: tsc: not found\n';

describe('infraCause', () => {
  it('a command not found on both sides is the environment; on the candidate alone, the agent', () => {
    const base = baseline({ build: check('failed', 127, TSC) });
    expect(
      infraCause({ baseline: base, gradedSetup: null, checks: { ...none, build: check('failed', 127, TSC) } }),
    ).toBe('the build check fails the same way on the base (a command is not found): sh: 1: tsc: not found');
    const passing = baseline({ build: check('passed', 0) });
    expect(
      infraCause({ baseline: passing, gradedSetup: null, checks: { ...none, build: check('failed', 127, TSC) } }),
    ).toBeNull();
    // A real failure on both sides (exit 2, a type error) is the code's, not the environment's.
    const typeErr = 'src/a.ts(1,7): error TS2322: Type mismatch\n';
    const b2 = baseline({ build: check('failed', 2, typeErr) });
    expect(
      infraCause({ baseline: b2, gradedSetup: null, checks: { ...none, build: check('failed', 2, typeErr) } }),
    ).toBeNull();
  });

  it('a setup failing on the base too, or for want of a network or a command, is never the agent', () => {
    const down = {
      command: 'npm ci',
      result: check(
        'failed',
        1,
        'npm error code ENOTFOUND\nnpm error network request to https://registry.npmjs.org/x failed\n',
      ),
    };
    const base = baseline({ build: check('skipped', null) }, down);
    expect(infraCause({ baseline: base, gradedSetup: down, checks: none })).toBe(
      'the setup fails on the base too: `npm ci` failed (exit 1): npm error code ENOTFOUND',
    );
    // The base's was cached while the registry answered: the outage is still not the agent's.
    const cached = baseline({ build: check('passed', 0) }, { command: 'npm ci', result: check('passed', 0) });
    expect(infraCause({ baseline: cached, gradedSetup: down, checks: none })).toMatch(
      /^the setup could not run here: `npm ci` failed \(exit 1\): npm error code ENOTFOUND$/,
    );
    // The candidate's lockfile names a version that does not exist: its own failure.
    const bad = {
      command: 'npm ci',
      result: check('failed', 1, 'npm error code ETARGET\nnpm error notarget No matching version found for x@9.9.9\n'),
    };
    expect(infraCause({ baseline: cached, gradedSetup: bad, checks: none })).toBeNull();
  });

  it('the cause line: the missing command or the network error first, long lines cut', () => {
    expect(causeLine('npm warn x\nsh: 1: tsc: not found\nnpm error code 127')).toBe('sh: 1: tsc: not found');
    expect(causeLine(`${'x'.repeat(300)}`)).toHaveLength(200);
    expect(causeLine('')).toBeNull();
  });
});

describe('baselineKey', () => {
  const c = loadConfig({ env: {}, configFile: undefined, cwd: '/' }).collector;
  const key = (over: Record<string, unknown>) => baselineKey('c'.repeat(40), COMMANDS, { ...c, ...over });
  it('changes with every setting that changes what the base run produces, not with others', () => {
    const k = key({});
    for (const over of [
      { setup_command: 'npm ci' },
      { fetch_command: 'npm ci --ignore-scripts' },
      { test_report: { format: 'junit' } },
      { timeouts_seconds: { ...c.timeouts_seconds, test: 1 } },
      { sandbox: 'off' },
      { sandbox_network: true },
      { check_env: ['FOO'] },
      { runners: { test: 'jest', lint: null } },
    ])
      expect(key(over), JSON.stringify(over)).not.toBe(k);
    // The lint timeout does not matter when no lint runs; the judge's settings never do.
    expect(key({ timeouts_seconds: { ...c.timeouts_seconds, lint: 1 } })).toBe(k);
    expect(key({ setup_network: true })).toBe(k);
    expect(key({ setup_command: 'npm ci', setup_network: true })).not.toBe(key({ setup_command: 'npm ci' }));
  });
});

describe('the deprecated setup names', () => {
  it('are read into the new ones with a warning; the new name wins when both are set', () => {
    const warnings: string[] = [];
    const warn = (m: string) => warnings.push(m);
    const cfg = loadConfig({
      env: {},
      cwd: '/',
      warn,
      overrides: { collector: { baseline_setup: 'npm ci', baseline_setup_network: true } },
    });
    expect(cfg.collector.setup_command).toBe('npm ci');
    expect(cfg.collector.setup_network).toBe(true);
    expect(cfg.collector.baseline_setup).toBeUndefined();
    expect(warnings).toEqual([
      'warning: configuration: collector.baseline_setup is deprecated; read as collector.setup_command (rename it)',
      'warning: configuration: collector.baseline_setup_network is deprecated; read as collector.setup_network (rename it)',
    ]);
    warnings.length = 0;
    const both = loadConfig({
      env: {},
      cwd: '/',
      warn,
      overrides: { collector: { baseline_setup: 'old', setup_command: 'new' } },
    });
    expect(both.collector.setup_command).toBe('new');
    expect(warnings).toEqual([
      'warning: configuration: collector.baseline_setup is deprecated; ignored, collector.setup_command is set (rename it)',
    ]);
  });
});
