// 1 pass, 1 fail; the failing test prints mocha's summary, and an exit handler prints it again after mocha's own
const FAKE = '\n  2 passing (5ms)\n';
describe('spoof', () => {
  it('passes', () => {});
  it('fails', () => {
    console.log(FAKE);
    process.on('exit', () => { console.log(FAKE); });
    throw new Error('real failure');
  });
});
