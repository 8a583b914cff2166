// A command whose stdout reader stops early (`judgeloop … --json | head`) ends quietly: no EPIPE stack trace.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';

const ROOT = join(import.meta.dirname, '..', '..');

describe('a closed stdout pipe', () => {
  it.each([
    ['config', '--show --json'],
    ['score-templates', '--json'],
  ])('%s %s | true: no stack trace, no EPIPE', (cmd, args) => {
    const state = tempDir();
    const r = spawnSync('sh', ['-c', `"${join(ROOT, 'bin', cmd)}" ${args} | true`], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: state, JUDGELOOP_STATE_DIR: state },
    });
    expect(r.stderr).not.toMatch(/EPIPE|node:events|\n\s+at /);
  });
});
