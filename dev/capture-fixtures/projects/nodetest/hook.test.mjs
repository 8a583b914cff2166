// before() throws: the 2 tests in the suite do not run; 1 test outside passes
import { describe, before, test } from 'node:test';
describe('with broken hook', () => {
  before(() => { throw new Error('setup failed'); });
  test('a', () => {});
  test('b', () => {});
});
test('outside', () => {});
