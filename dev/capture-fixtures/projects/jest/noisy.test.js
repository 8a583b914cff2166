// 2 pass; prints runner-like summaries itself
test('prints', () => { console.log('Tests: 99 passed, 99 total\nTest Suites: 9 passed, 9 total'); });
test('prints more', () => { process.stdout.write('10 passed, 0 failed\n'); });
