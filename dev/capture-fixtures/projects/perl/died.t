# Raw TAP: plans 5, 2 pass, then dies: the plan is not met
use strict; use warnings;
use Test::More tests => 5;
ok(1, 'one');
ok(1, 'two');
die "something broke\n";
