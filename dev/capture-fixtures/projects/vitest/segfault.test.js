// 1 pass, then the worker process segfaults (SIGSEGV to itself)
import { test } from 'vitest';
test('before segfault', () => {});
test('segfaults', () => { process.kill(process.pid, 'SIGSEGV'); });
test('after segfault', () => {});
