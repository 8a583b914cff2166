// 3 pass, 2 fail, 1 skip, 1 pending (no body)
const assert = require('node:assert');
describe('math', () => {
  it('adds', () => assert.equal(1 + 1, 2));
  it('subtracts', () => assert.equal(2 - 1, 1));
  it('multiplies', () => assert.equal(2 * 2, 4));
  it('fails equal', () => assert.equal(1 + 1, 3));
  it('fails throw', () => { throw new Error('boom'); });
  it.skip('skipped', () => {});
  it('todo later');
});
