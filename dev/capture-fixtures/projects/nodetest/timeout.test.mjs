// 1 pass, 1 timeout (node reports it as failed "test timed out")
import { test } from 'node:test';
test('quick', () => {});
test('slow', { timeout: 100 }, () => new Promise((r) => setTimeout(r, 2000)));
