// beforeAll throws: the 2 tests in the suite do not run; 1 test outside passes
import { describe, beforeAll, test } from 'vitest';
describe('with broken hook', () => {
  beforeAll(() => { throw new Error('setup failed'); });
  test('a', () => {});
  test('b', () => {});
});
test('outside', () => {});
