// 4 pass
import { test, expect } from 'vitest';
test.each([1, 2, 3, 4])('value %i is positive', (n) => expect(n > 0).toBe(true));
