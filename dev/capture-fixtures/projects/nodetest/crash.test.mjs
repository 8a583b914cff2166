// 1 pass then the process exits: node counts the file as one failed test
import { test } from 'node:test';
test('before crash', () => {});
test('crashes', () => { process.exit(1); });
test('after crash', () => {});
