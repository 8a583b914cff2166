// fails to load: missing module
import { test } from 'vitest';
import { nothing } from './does-not-exist.js';
test('never runs', () => nothing());
