// 2000 pass
import { test, expect } from 'vitest';
test.each(Array.from({ length: 2000 }, (_, i) => i))('case %i', (n) => expect(n >= 0).toBe(true));
