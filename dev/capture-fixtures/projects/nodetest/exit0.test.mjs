// process.exit(0) inside a test: node reports the whole file as one passing test
import { test } from 'node:test';
test('before exit', () => {});
test('exits 0', () => { process.exit(0); });
test('after exit', () => {});
