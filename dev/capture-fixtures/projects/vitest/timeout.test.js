// 1 pass, 1 timeout
import { test } from 'vitest';
test('quick', () => {});
test('slow', () => new Promise((r) => setTimeout(r, 2000)), 100);
