// eslint: 1 fatal parsing error
const = 1;
