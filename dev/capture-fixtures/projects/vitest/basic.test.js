// 3 pass, 2 fail, 1 skip, 1 todo
import { describe, test, expect } from 'vitest';
describe('math', () => {
  test('adds', () => expect(1 + 1).toBe(2));
  test('subtracts', () => expect(2 - 1).toBe(1));
  test('multiplies', () => expect(2 * 2).toBe(4));
  test('fails equal', () => expect(1 + 1).toBe(3));
  test('fails throw', () => { throw new Error('boom'); });
  test.skip('skipped', () => {});
  test.todo('todo later');
});
