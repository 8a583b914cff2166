// 4 pass
const assert = require('node:assert');
describe('positive', () => { for (const n of [1, 2, 3, 4]) it(`value ${n}`, () => assert.ok(n > 0)); });
