// V8's code cache written by `npm run build` (dev/bundle-loader.cjs → dist/bundle/load.cjs, lib/schema/code-cache.ts):
// accepted for the bytes it was sealed for, never handed to V8 for others, and a cache V8 refuses still runs.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from '../../lib/cli/commands/names.js';
import { sealedCacheData } from '../../lib/schema/code-cache.js';
import { tempDir } from '../helpers/repo.js';
import {
  agentWorktree,
  copyCheckout,
  makeProject,
  readJson,
  ROOT,
  runRecord,
  writeRecord,
  type Project,
} from './_project.js';

const loader = createRequire(import.meta.url)('../../dev/bundle-loader.cjs') as {
  sealCache: (source: Buffer, data: Buffer) => Buffer;
  cachedDataFor: (source: Buffer, cacheFile: string) => Buffer | undefined;
};

/** A preload that prints, at exit, `<file>: accepted|rejected|none` for each script compiled with the hook. */
function reporter(): string {
  const file = join(tempDir('judgeloop-cc-hook-'), 'report.cjs');
  writeFileSync(
    file,
    "globalThis[Symbol.for('judgeloop.code-cache')] = (name, script, { cachedData }) => process.on('exit', () =>" +
      " process.stderr.write(`cache ${require('node:path').basename(name)}: ${cachedData ? (script.cachedDataRejected ? 'rejected' : 'accepted') : 'none'}\\n`));\n",
  );
  return file;
}

function node(args: string[], cwd = ROOT, env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, args, {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: tmpdir(), ...env },
    encoding: 'utf8',
  });
  const caches = r.stderr
    .split('\n')
    .filter((l) => l.startsWith('cache '))
    .map((l) => l.slice('cache '.length))
    .sort();
  const stderr = r.stderr
    .split('\n')
    .filter((l) => !l.startsWith('cache '))
    .join('\n');
  return { code: r.status, stdout: r.stdout, stderr, caches };
}

/** Feedback without what differs between two collections of the same run (times, output, paths, the sweep's finds). */
const UNSTABLE = new Set(['duration_ms', 'output', 'escaped_processes', 'steps', 'collected_at', 'commit']);
const stable = (fb: Record<string, unknown>): unknown =>
  JSON.parse(JSON.stringify(fb), (k, v: unknown) => (UNSTABLE.has(k) ? undefined : v));

/** A collect of a run whose checks are `true`, by the bundle at `root`, with the reporter preloaded, into `state`. */
function collect(root: string, hook: string, p = project(), state = p.state) {
  const rec = writeRecord(p, 'run', runRecord({ commands: { build: 'true', test: 'true' } }));
  const r = node(['--require', hook, join(root, 'dist', 'bundle', 'collect.mjs'), '--quiet', rec], p.dir, {
    JUDGELOOP_STATE_DIR: state,
  });
  return { ...r, feedback: readJson(join(state, 'feedback', 'bd-1.json')) as Record<string, unknown> };
}

function project(): Project {
  const p = makeProject();
  agentWorktree(p, 'a');
  return p;
}

describe('sealedCacheData (pure)', () => {
  const source = Buffer.from('"use strict"; module.exports = 1;');
  const data = Buffer.from('V8 code cache bytes');
  const sealed = loader.sealCache(source, data);

  it('gives back the data of a cache sealed for these bytes (the build and lib read one format)', () => {
    expect(sealedCacheData(source, sealed)).toEqual(data);
  });

  it('refuses a cache for other bytes of the same length (V8 itself compares only the length)', () => {
    const other = Buffer.from("'use strict'; module.exports = 1;");
    expect(other.length).toBe(source.length);
    expect(sealedCacheData(other, sealed)).toBeUndefined();
  });

  it('refuses damaged data, a cache too short to hold a seal, and no cache', () => {
    const damaged = Buffer.from(sealed);
    damaged[damaged.length - 1] = damaged[damaged.length - 1]! ^ 1;
    expect(sealedCacheData(source, damaged)).toBeUndefined();
    expect(sealedCacheData(source, sealed.subarray(0, 32))).toBeUndefined();
    expect(sealedCacheData(source, undefined)).toBeUndefined();
  });
});

describe('the code cache of the bundles and the validators', () => {
  it('every command starts with its cache accepted; a collect runs its validators from theirs', {
    timeout: 120_000,
  }, () => {
    const hook = reporter();
    for (const c of [...COMMAND_NAMES, 'judgeloop']) {
      const r = node(['--require', hook, join(ROOT, 'dist', 'bundle', `${c}.mjs`), '--help']);
      expect(r.code, `${c} --help: ${r.stderr}`).toBe(0);
      expect(r.caches, c).toEqual([`${c}: accepted`]);
    }
    const r = collect(ROOT, hook);
    expect(r.code, r.stderr).toBe(0);
    // The build's warm-up collect wrote these: the command and the validators of what a collect reads and writes.
    for (const f of ['collect', 'run-record.cjs', 'baseline.cjs', 'feedback.cjs', 'feedback-index.cjs'])
      expect(r.caches, f).toContain(`${f}: accepted`);
    expect(r.caches.filter((c) => !c.endsWith(': accepted'))).toEqual([]);
  });

  it('a body or a validator edited after the build (same length) runs without its cache, and the same', {
    timeout: 120_000,
  }, () => {
    const hook = reporter();
    const p = project();
    const before = collect(ROOT, hook, p);
    const copy = copyCheckout();
    for (const f of ['dist/bundle/collect.cjs', 'dist/validators/feedback.cjs']) {
      const file = join(copy, f);
      const text = readFileSync(file, 'utf8');
      expect(text).toContain('"use strict";');
      writeFileSync(file, text.replace('"use strict";', "'use strict';"));
    }
    const after = collect(copy, hook, p, join(p.dir, 'state-2'));
    expect(after.code, after.stderr).toBe(0);
    expect(after.caches).toContain('collect: none');
    expect(after.caches).toContain('feedback.cjs: none');
    expect(after.caches).toContain('baseline.cjs: accepted');
    expect(stable(after.feedback)).toEqual(stable(before.feedback));
  });

  it('a cache V8 refuses (node started with other V8 flags) still runs the command', () => {
    const hook = reporter();
    const collectMjs = join(ROOT, 'dist', 'bundle', 'collect.mjs');
    const plain = node(['--require', hook, collectMjs, '--version']);
    const other = node(['--no-opt', '--require', hook, collectMjs, '--version']);
    expect(plain.caches).toEqual(['collect: accepted']);
    expect(other.caches).toEqual(['collect: rejected']);
    expect(other.stdout).toBe(plain.stdout);
    expect(other.code).toBe(0);
  });
});
