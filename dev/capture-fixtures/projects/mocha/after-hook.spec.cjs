// afterEach throws after the first test: mocha stops the suite; 1 test passed, the hook failed, 1 test never ran
describe('with broken afterEach', () => {
  afterEach(() => { throw new Error('teardown failed'); });
  it('a', () => {});
  it('b', () => {});
});
