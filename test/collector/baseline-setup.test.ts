// collector.setup_command: run in each checkout before its checks, a failed one never cached nor the agent's fault
// (real repo, real node --test runs).
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../scripts/collect.js';
import { run as baselinesRun } from '../../scripts/baselines.js';
import { validate } from '../../lib/schema/schema.js';
import type { Baseline, Feedback } from '../../lib/schema/types.generated.js';
import { agentWorktree, makeIo, makeProject, readJson, runRecord, writeRecord, type Project } from './_project.js';

// The tests need deps/helper.mjs, which is not in git (ignored, like node_modules): the agent's worktree has it
// installed, a clean checkout of the base does not until the setup "installs" it from vendor/.
const FILES: Record<string, string> = {
  '.gitignore': 'deps/\n',
  'vendor/helper.src': 'export const double = (x) => 2 * x;\n',
  'src/add.mjs': 'export function add(a, b) {\n  return a + b;\n}\n',
  'test/add.test.mjs': [
    "import test from 'node:test';",
    "import assert from 'node:assert';",
    "import { add } from '../src/add.mjs';",
    "import { double } from '../deps/helper.mjs';",
    "test('adds', () => assert.ok(add(1, 2) === 3));",
    "test('doubles', () => assert.ok(double(add(1, 1)) === 4));",
    '',
  ].join('\n'),
};
const INSTALL = 'mkdir -p deps && cp vendor/helper.src deps/helper.mjs';
const COMMANDS = { build: null, test: 'node --test test/', lint: null, typecheck: null };

function setupProject(): { p: Project; wt: string } {
  const p = makeProject(FILES);
  const wt = agentWorktree(p, 'a', {
    uncommitted: { 'deps/helper.mjs': FILES['vendor/helper.src']!, 'src/extra.mjs': 'export const x = 1;\n' },
  });
  return { p, wt };
}

async function collect(
  p: Project,
  bead: string,
  collector: Record<string, unknown> | null,
  env: Record<string, string> = {},
) {
  const args = ['--quiet'];
  if (collector) {
    const cfg = join(p.dir, `${bead}.config.json`);
    writeFileSync(cfg, JSON.stringify({ collector }));
    args.push('--config', cfg);
  }
  args.push(writeRecord(p, bead, runRecord({ bead, worktree: 'wt-a', commands: COMMANDS })));
  const { io, out, err } = makeIo(p, env);
  const code = await run(args, io);
  const fb = readJson<Feedback>(join(p.state, 'feedback', `${bead}.json`));
  const v = validate('feedback', fb);
  expect(v.ok ? [] : v.errors).toEqual([]);
  return { code, out: out.join(''), err: err.join(''), fb };
}

function baselineFile(p: Project, key: string): Baseline {
  const b = readJson<Baseline>(join(p.state, 'baselines', `${key}.json`));
  const v = validate('baseline', b);
  expect(v.ok ? [] : v.errors).toEqual([]);
  return b;
}

describe('collector.setup_command', () => {
  const { p } = setupProject();
  let keyWithout = '';

  it('without it, the base tests and the sealed candidate fail in the clean checkouts for want of the installed file', async () => {
    const r = await collect(p, 'bd-none', null);
    expect(r.code).toBe(0);
    // deps/ is git-ignored: it exists in the agent's worktree, never in a checkout of the sealed candidate.
    expect(r.fb.checks.test?.status).toBe('failed');
    expect(r.fb.checks.test?.output?.text).toMatch(/helper\.mjs/);
    keyWithout = r.fb.baseline!.key;
    const b = baselineFile(p, keyWithout);
    expect(b.setup).toBeUndefined();
    expect(b.checks.test?.status).toBe('failed');
    expect(b.checks.test?.output?.text).toMatch(/helper\.mjs/);
  });

  it('with it, the setup runs in the base checkout (scrubbed env) and the base tests pass; the key changes', async () => {
    // The setup refuses to run if a secret reached it.
    const setup = `test -z "$MY_API_KEY" && echo installing && ${INSTALL}`;
    const r = await collect(p, 'bd-setup', { setup_command: setup }, { MY_API_KEY: 'sk-secret' });
    expect(r.code).toBe(0);
    expect(r.fb.baseline?.key).not.toBe(keyWithout);
    expect(r.fb.baseline?.setup_failed).toBeUndefined();
    expect(r.fb.baseline?.tests).toMatchObject({ passed: 2, failed: 0, total: 2 });
    expect(r.fb.outcome).toBe('full_pass');
    expect(r.fb.integrity.notes).toEqual([]);
    const b = baselineFile(p, r.fb.baseline!.key);
    expect(b.setup?.command).toBe(setup);
    expect(b.setup?.result).toMatchObject({ status: 'passed', exit_code: 0, source: 'collector' });
    expect(b.setup?.result.output?.text).toContain('installing');
    expect(b.checks.test?.status).toBe('passed');
    // Nothing of the setup leaks into the repository's own checkouts.
    expect(readdirSync(p.repo)).not.toContain('deps');
  });

  it('a setup failing on the base too is infra_failure with its first line, the base checks not run, nothing cached', async () => {
    const setup = 'echo "installing"; echo "npm error registry unreachable" >&2; exit 3';
    const r = await collect(p, 'bd-fail', { setup_command: setup });
    expect(r.code).toBe(0);
    expect(r.fb.baseline).toMatchObject({ setup_failed: true, build_passed: null, tests: null, lint: null });
    expect(r.fb.integrity.notes.join('\n')).toMatch(
      /baseline setup `echo "installing"; .*exit 3` failed \(exit 3\) in the base checkout \(not cached.*base checks not run; scored without a baseline/,
    );
    // The same setup runs in the sealed candidate's checkout and fails there too: its checks are failed, noted.
    expect(r.fb.checks.test).toMatchObject({
      status: 'failed',
      skipped_reason: expect.stringMatching(
        /setup `.*` failed \(exit 3\): npm error registry unreachable in the sealed checkout/,
      ),
    });
    // Not the agent's work: the environment's, with the cause's line on the collect line.
    expect(r.fb.outcome).toBe('infra_failure');
    expect(r.fb.outcome_reason).toBe(
      `the setup fails on the base too: \`${setup}\` failed (exit 3): npm error registry unreachable`,
    );
    expect(r.out).toMatch(
      /^bd-fail\s+infra_failure .*infra: the setup fails on the base too: .*npm error registry unreachable\n$/,
    );
    expect(existsSync(join(p.state, 'baselines', `${r.fb.baseline!.key}.json`))).toBe(false);
    // Collected again, the base's setup is run again (nothing cached), and fails again the same way.
    const again = await collect(p, 'bd-fail', { setup_command: setup });
    expect(again.fb.outcome).toBe('infra_failure');
    expect(readdirSync(join(p.state, 'baselines')).filter((f) => f.startsWith(r.fb.baseline!.key))).toEqual([]);
  });

  it('a setup that hangs is killed at its own timeout and recorded as timed out', async () => {
    const r = await collect(p, 'bd-hang', {
      setup_command: 'sleep 30',
      setup_timeout_seconds: 0.5,
      kill_grace_seconds: 0.2,
    });
    expect(r.code).toBe(0);
    expect(r.fb.baseline?.setup_failed).toBe(true);
    expect(r.fb.integrity.notes.join('\n')).toMatch(/baseline setup `sleep 30` timed out/);
    expect(r.fb.outcome).toBe('infra_failure');
    expect(r.fb.outcome_reason).toMatch(/^the setup fails on the base too: `sleep 30` timed out/);
  });

  it('the cached baseline (setup included) is reused, not recomputed', async () => {
    const before = readdirSync(join(p.state, 'baselines')).sort();
    const setup = `test -z "$MY_API_KEY" && echo installing && ${INSTALL}`;
    // The deprecated name is read as setup_command (with a warning: test/lib/config.test.ts): the same key.
    const r = await collect(p, 'bd-setup2', { baseline_setup: setup });
    expect(readdirSync(join(p.state, 'baselines')).sort()).toEqual(before);
    expect(r.fb.baseline?.tests).toMatchObject({ passed: 2 });
  });

  it('`baselines` lists the cached ones and --clear deletes them (one by key, then all)', async () => {
    const keys = readdirSync(join(p.state, 'baselines'))
      .map((f) => f.replace(/\.json$/, ''))
      .sort();
    expect(keys.length).toBe(2);
    const { io, out } = makeIo(p);
    expect(await baselinesRun([], io)).toBe(0);
    const lines = out.join('').trim().split('\n');
    expect(lines.map((l) => l.split('  ')[0]).sort()).toEqual(keys);
    expect(lines.find((l) => l.includes('setup passed'))).toMatch(
      /^[0-9a-f]{32} {2}[0-9a-f]{12} {2}\S+ {2}setup passed {2}test passed \(2\/2\)$/,
    );
    const one = makeIo(p);
    expect(await baselinesRun(['--clear', '--json', keys[0]!], one.io)).toBe(0);
    expect(JSON.parse(one.out.join(''))).toMatchObject({ cleared: [keys[0]] });
    expect(readdirSync(join(p.state, 'baselines')).filter((f) => f.endsWith('.json'))).toEqual([`${keys[1]}.json`]);
    await expect(baselinesRun(['--clear', keys[0]!], makeIo(p).io)).rejects.toThrow(/no baseline/);
    expect(await baselinesRun(['--clear'], makeIo(p).io)).toBe(0);
    expect(readdirSync(join(p.state, 'baselines')).filter((f) => f.endsWith('.json'))).toEqual([]);
  });
});
