// eslint: 1 error (no-undef), 0 warnings
console.log(missing);
