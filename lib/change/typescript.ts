// The TypeScript compiler (9 MB), loaded on first use: a command that never measures TS/JS code — and every
// `bin/race --help` — never pays for it (about a second of start-up when it was imported at load time).
import { createRequire } from 'node:module';
import type TS from 'typescript';

let mod: typeof TS | undefined;
const load = (): typeof TS => {
  mod ??= createRequire(import.meta.url)('typescript') as typeof TS;
  return mod;
};

/** `ts` as if imported, loaded at the first property read. */
export const ts: typeof TS = new Proxy({} as typeof TS, { get: (_target, key) => Reflect.get(load(), key) });
