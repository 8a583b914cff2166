// 3 pass, 2 fail, 1 skip, 1 todo
import t from 'tap';
t.test('adds', async (t) => t.equal(1 + 1, 2));
t.test('subtracts', async (t) => t.equal(2 - 1, 1));
t.test('multiplies', async (t) => t.equal(2 * 2, 4));
t.test('fails equal', async (t) => t.equal(1 + 1, 3));
t.test('fails throw', async () => { throw new Error('boom'); });
t.test('skipped', { skip: true }, async () => {});
t.test('todo later', { todo: true }, async () => {});
