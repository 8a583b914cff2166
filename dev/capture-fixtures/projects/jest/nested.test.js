// nested suites: outer > inner > 2 pass, outer > 1 fail, 1 skip at top level
describe('outer', () => {
  describe('inner', () => {
    test('deep one', () => {});
    test('deep two', () => {});
  });
  test('shallow fails', () => expect(1).toBe(2));
});
test.skip('top skipped', () => {});
