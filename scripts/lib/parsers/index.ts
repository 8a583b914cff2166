// PLACEHOLDER (collector branch) — the real parsers come from the `parsers` branch, which replaces this
// file at merge. It handles only node --test summaries (spec `ℹ pass N`, TAP `# pass N`) and eslint
// stylish's `✖ N problems (E errors, W warnings)`, so the collector can be built and tested meanwhile.
import type { LintCounts, ParseOptions, TestCounts } from './types.js';

export type { LintCounts, ParseOptions, TestCounts };

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]|\u001b\([A-Z0-9]/g;

function lastCount(text: string, key: string): number | null {
  const re = new RegExp(`^(?:#|ℹ) ${key} (\\d+)\\s*$`, 'gm');
  let n: number | null = null;
  for (const m of text.matchAll(re)) n = Number(m[1]);
  return n;
}

export function parseTestOutput(text: string, _opts: ParseOptions = {}): TestCounts | null {
  const clean = text.replace(ANSI, '').replace(/\r\n/g, '\n');
  const tests = lastCount(clean, 'tests');
  const pass = lastCount(clean, 'pass');
  if (tests === null || pass === null) return null;
  const fail = lastCount(clean, 'fail') ?? 0;
  const cancelled = lastCount(clean, 'cancelled') ?? 0;
  const skipped = (lastCount(clean, 'skipped') ?? 0) + (lastCount(clean, 'todo') ?? 0);
  return { runner: 'node-test', passed: pass, failed: fail + cancelled, skipped, errors: 0, total: tests };
}

export function parseLintOutput(text: string, _opts: ParseOptions = {}): LintCounts | null {
  const clean = text.replace(ANSI, '');
  const m = /✖ \d+ problems? \((\d+) errors?, (\d+) warnings?\)/.exec(clean);
  if (!m) return null;
  return { linter: 'eslint', errors: Number(m[1]), warnings: Number(m[2]) };
}
