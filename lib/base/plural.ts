// A count with its noun in the right number, for sentences people read: "1 test", "2 tests" (pure).

/** `1 test`, `2 tests`, `0 tests`; `many` for an irregular plural (`1 match`, `2 matches`). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
