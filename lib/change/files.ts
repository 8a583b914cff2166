// The file classes a change is read by (pure): source code by its extension.
export const SOURCE_FILE =
  /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs|py|go|rs|rb|java|kt|swift|c|cc|cpp|h|hpp|cs|php|scala|sh|sql|ex|exs)$/;
