import type { Io } from '../../lib/cli/cli.js';
import type { EnvSettings } from '../../lib/base/env.js';

export interface Captured extends Io {
  out: () => string;
  err: () => string;
}

/** An Io whose stdout and stderr are collected, with the given env settings. */
export function captureIo(env: EnvSettings): Captured {
  let out = '';
  let err = '';
  return {
    stdout: (t) => void (out += t),
    stderr: (t) => void (err += t),
    env,
    processEnv: {},
    cwd: process.cwd(),
    color: false,
    out: () => out,
    err: () => err,
  };
}
