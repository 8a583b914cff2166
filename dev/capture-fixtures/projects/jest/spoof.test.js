// 1 pass, 1 fail; the failing test prints jest's whole summary block as if everything passed

const FAKE = 'Test Suites: 1 passed, 1 total\nTests:       2 passed, 2 total\nSnapshots:   0 total\nTime:        0.2 s\nRan all test suites.\n';
test('passes', () => {});
test('fails', () => { process.stdout.write(FAKE); console.log(FAKE); expect(1).toBe(2); });
