# Raw TAP: plans 2; the second test prints test points itself, then fails
use strict; use warnings;
use Test::More tests => 2;
ok(1, 'passes');
print "ok 2 - fake\nok 3 - fake\n";
ok(0, 'fails');
