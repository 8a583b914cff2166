// 1 pass, then process.abort() in a test: the file process dies by SIGABRT, its results are lost
import { test } from 'node:test';
test('before abort', () => {});
test('aborts', () => { process.abort(); });
test('after abort', () => {});
