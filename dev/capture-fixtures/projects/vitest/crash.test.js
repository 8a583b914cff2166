// 1 pass then the worker exits mid-file: 1 pass proven, the rest never reported
import { test } from 'vitest';
test('before crash', () => {});
test('crashes', () => { process.exit(1); });
test('after crash', () => {});
