// 2 pass; prints runner-like summaries itself
import { test } from 'node:test';
test('prints', () => { console.log('# pass 99\n# fail 0\nℹ tests 99\nℹ pass 99'); });
test('prints more', () => { console.log('10 passed, 0 failed'); });
