# Raw TAP: 1 pass then Bail out!
use strict; use warnings;
use Test::More tests => 3;
ok(1, 'one');
BAIL_OUT('database is down');
