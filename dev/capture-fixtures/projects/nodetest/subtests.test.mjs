// t.test subtests: 'parent' fails through 1 of 2 children; 'parent throws' fails in its own body after 1 passing
// child (node's JUnit drops that failure); 'all pass' has 2 passing children; 'plain' passes.
// node counts parents as tests: tests 9, pass 6, fail 3 (parent, child fails, parent throws).
import { test } from 'node:test';
import assert from 'node:assert/strict';
test('parent', async (t) => {
  await t.test('child ok', () => {});
  await t.test('child fails', () => assert.equal(1, 2));
});
test('parent throws', async (t) => {
  await t.test('kid ok', () => {});
  throw new Error('parent body fails');
});
test('all pass', async (t) => {
  await t.test('a', () => {});
  await t.test('b', () => {});
});
test('plain', () => {});
