// 1 pass, 1 timeout
describe('timing', () => {
  it('quick', () => {});
  it('slow', function () { this.timeout(100); return new Promise((r) => setTimeout(r, 2000)); });
});
