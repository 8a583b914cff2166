// 1 pass, then the worker segfaults
test('before segfault', () => {});
test('segfaults', () => { process.kill(process.pid, 'SIGSEGV'); });
test('after segfault', () => {});
