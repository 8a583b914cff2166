// 4 pass
import { test } from 'node:test';
import assert from 'node:assert/strict';
for (const n of [1, 2, 3, 4]) test(`value ${n}`, () => assert.ok(n > 0));
