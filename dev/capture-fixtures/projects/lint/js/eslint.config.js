// no-undef and eqeqeq are errors; no-unused-vars a warning.
export default [{
  files: ['**/*.js'],
  languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: { console: 'readonly' } },
  rules: { 'no-undef': 'error', eqeqeq: 'error', 'no-unused-vars': 'warn', 'no-debugger': 'error' },
}];
