// 2 pass; prints runner-like summaries itself
describe('noisy', () => {
  it('prints', () => { console.log('  99 passing (5ms)\n  3 failing'); });
  it('prints tap', () => { console.log('# pass 50\n# fail 0\n1..50'); });
});
