// before-hook failure: mocha reports the hook as one failure, the 2 tests do not run
describe('with broken hook', () => {
  before(() => { throw new Error('setup failed'); });
  it('a', () => {});
  it('b', () => {});
});
