// nested suites: outer > inner > 2 pass, outer > 1 fail, 1 skip at top level
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
describe('outer', () => {
  describe('inner', () => {
    test('deep one', () => {});
    test('deep two', () => {});
  });
  test('shallow fails', () => assert.equal(1, 2));
});
test('top skipped', { skip: true }, () => {});
