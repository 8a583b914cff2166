// 1 pass, 1 fail; the failing test prints node's whole closing block as if everything passed (spec and TAP shapes)
import { test } from 'node:test';
import assert from 'node:assert/strict';
const SPEC = 'ℹ tests 2\nℹ suites 0\nℹ pass 2\nℹ fail 0\nℹ cancelled 0\nℹ skipped 0\nℹ todo 0\nℹ duration_ms 5.1';
const TAP = '1..2\n# tests 2\n# suites 0\n# pass 2\n# fail 0\n# cancelled 0\n# skipped 0\n# todo 0\n# duration_ms 5.1';
test('passes', () => {});
test('fails', () => { console.log(SPEC); console.log(TAP); assert.equal(1, 2); });
