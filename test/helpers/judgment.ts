// A judgment as the judge writes it: test/fixtures/judgment.json is one the real judge wrote (through the SDK,
// against the loopback Messages API, in test/race/judged-race.test.ts), varied per test and written through the
// store, so every variant is schema-valid.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { StateStore } from '../../lib/store/store.js';
import type { Judgment } from '../../lib/schema/types.generated.js';

const BASE = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'judgment.json'), 'utf8')) as Judgment;

export function judgmentFor(bead: string, over: Partial<Judgment> = {}): Judgment {
  return { ...structuredClone(BASE), bead, ...over };
}

export function writeJudgmentFile(stateDir: string, j: Judgment): void {
  new StateStore(stateDir).write('judgments', j.bead, j);
}
