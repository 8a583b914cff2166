// Reads what judgeloop's go test / cargo test observer recorded beside the report and sets the test check's
// observer, notes and disputes from it (the rules: parsers/native-witness.ts).
import { lstatSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { readTreeFile } from '../git/tree-read.js';
import type { Check } from '../schema/types.generated.js';
import { NATIVE_RECORD, parseNativeRecord, reconcileCargo, reconcileGo } from './parsers/native-witness.js';

const CAP = 4 << 20;

/** A regular file the run wrote in the report folder (a link or a folder planted there is not one), else null. */
function own(dir: string, name: string): string | null {
  try {
    const f = join(dir, name);
    const st = lstatSync(f);
    if (!st.isFile() || st.size > CAP) return null;
    return readFileSync(f, 'utf8');
  } catch {
    return null;
  }
}

/** A folder of the checkout → its Go import path (the nearest go.mod's module and the path below it). */
function goPackage(root: string): (dir: string) => string | null {
  return (dir) => {
    const rel = relative(root, dir);
    if (rel.startsWith('..')) return null;
    const parts = rel ? rel.split('/') : [];
    for (let i = parts.length; i >= 0; i--) {
      const r = readTreeFile(root, [...parts.slice(0, i), 'go.mod'].join('/'), 1 << 20);
      if (!r.ok) continue;
      const m = /^\s*module\s+"?([^\s"]+)/m.exec(r.text);
      if (!m) return null;
      const below = parts.slice(i).join('/');
      return below ? `${m[1]}/${below}` : (m[1] as string);
    }
    return null;
  };
}

/** The observer's verdict on `check` (go or cargo): saw, or missing (fail closed); what it saw disputes the counts. */
export function observeNative(check: Check, dir: string, runner: 'go' | 'cargo', cwd: string): void {
  const t = check.tests;
  if (!t) return;
  const text = own(dir, NATIVE_RECORD);
  const rec = parseNativeRecord(text ?? '', (name) => own(dir, name));
  const timedOut = check.status === 'timeout';
  const v =
    runner === 'go'
      ? reconcileGo(t.cases ?? [], rec, goPackage(cwd), timedOut)
      : reconcileCargo(t.cases ?? [], rec, timedOut);
  const name = runner === 'go' ? 'go test' : 'cargo test';
  const missing = text === null ? ['no test binary ran under it'] : v.missing;
  t.observer = missing.length ? 'missing' : 'saw';
  if (missing.length)
    t.notes = [
      ...(t.notes ?? []),
      `judgeloop's ${name} observer was planned and never reported (${missing.slice(0, 3).join('; ')}): the run is unobserved`,
    ];
  if (v.seen.length) {
    t.counts_disputed = true;
    t.notes = [
      ...(t.notes ?? []),
      `the runner's results disagree with what its test binaries did: ${v.seen.slice(0, 4).join('; ')}; judgeloop's ${name} observer saw it`,
    ];
  }
}
