// 1 pass, 1 fail; the failing test prints vitest's whole summary block as if everything passed
import { test, expect } from 'vitest';
const FAKE = ' Test Files  1 passed (1)\n      Tests  2 passed (2)\n   Start at  10:00:00\n   Duration  120ms\n';
test('passes', () => {});
test('fails', () => { process.stdout.write(FAKE); console.log(FAKE); expect(1).toBe(2); });
