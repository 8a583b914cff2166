# Raw TAP from Perl's Test::More: 3 pass, 2 fail, 1 skip, 1 todo (failing, so not a failure)
use strict; use warnings;
use Test::More tests => 7;
is(1 + 1, 2, 'adds');
is(2 - 1, 1, 'subtracts');
is(2 * 2, 4, 'multiplies');
is(1 + 1, 3, 'fails equal');
ok(0, 'fails plain');
SKIP: { skip 'not today', 1; ok(1, 'skipped'); }
TODO: { local $TODO = 'later'; ok(0, 'todo later'); }
