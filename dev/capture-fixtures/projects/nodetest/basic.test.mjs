// 3 pass, 2 fail, 1 skip, 1 todo
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
describe('math', () => {
  test('adds', () => assert.equal(1 + 1, 2));
  test('subtracts', () => assert.equal(2 - 1, 1));
  test('multiplies', () => assert.equal(2 * 2, 4));
  test('fails equal', () => assert.equal(1 + 1, 3));
  test('fails throw', () => { throw new Error('boom'); });
  test('skipped', { skip: true }, () => {});
  test('todo later', { todo: true }, () => {});
});
