// 2 pass; prints runner-like summaries itself
import { test } from 'vitest';
test('prints', () => { console.log(' Tests  99 passed (99)\n Test Files  9 passed (9)'); });
test('prints more', () => { process.stdout.write('10 passed, 0 failed\n'); });
