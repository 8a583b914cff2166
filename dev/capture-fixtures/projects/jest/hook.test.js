// beforeAll throws: jest marks the 2 tests in the suite failed; 1 test outside passes
describe('with broken hook', () => {
  beforeAll(() => { throw new Error('setup failed'); });
  test('a', () => {});
  test('b', () => {});
});
test('outside', () => {});
