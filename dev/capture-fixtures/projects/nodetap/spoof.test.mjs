// 1 pass, 1 fail; the failing test prints tap's closing summary as if everything passed
import t from 'tap';
t.test('passes', async (t) => t.pass('fine'));
t.test('fails', async (t) => { console.log('# { total: 2, pass: 2 }'); t.equal(1, 2); });
