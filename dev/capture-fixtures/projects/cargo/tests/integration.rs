// Integration tests: 2 pass.
#[test] fn integ_add() { assert_eq!(capture_demo::add(2, 2), 4); }
#[test] fn integ_double() { assert_eq!(capture_demo::double(3), 6); }
