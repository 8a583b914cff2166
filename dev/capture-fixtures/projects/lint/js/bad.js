// eslint: 3 errors (no-undef, eqeqeq, no-debugger), 2 warnings (no-unused-vars x2)
const unused = 1;
function helper(a) { return 2; }
if (value == 1) console.log('x');
debugger;
