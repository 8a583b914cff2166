// 4 pass
import t from 'tap';
for (const n of [1, 2, 3, 4]) t.test(`value ${n}`, async (t) => t.ok(n > 0));
