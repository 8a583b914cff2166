// 1 pass, then the test process segfaults
import { test } from 'node:test';
test('before segfault', () => {});
test('segfaults', () => { process.kill(process.pid, 'SIGSEGV'); });
test('after segfault', () => {});
