// nested suites: outer > inner > 2 pass, outer > 1 fail, 1 pending at top level
describe('outer', () => {
  describe('inner', () => {
    it('deep one', () => {});
    it('deep two', () => {});
  });
  it('shallow fails', () => { throw new Error('nope'); });
});
it.skip('top skipped', () => {});
