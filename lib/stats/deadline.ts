// window_full_pass configured by a deadline (issue 39): the design_days that keep the real false-alarm rate under 1 per
// 1,000 template-days for one window of the deadline's days, fitted by bench/drift-deadline.ts (pure).

/** The grid the table was fitted on: deadlines in days, runs a day. */
export const DEADLINE_DAYS = [1, 2, 3, 4, 5, 7, 10, 14];
export const DEADLINE_PER_DAY = [3, 10, 30];

/** design_days per run rate (rows, DEADLINE_PER_DAY) and deadline (columns, DEADLINE_DAYS): bench/drift-deadline.ts. */
export const DEADLINE_DESIGN: number[][] = [
  [1496, 1496, 1496, 1496, 1469, 1403, 1431, 1459],
  [1632, 1645, 1737, 1807, 1944, 2325, 3094, 4665],
  [2028, 3017, 4363, 6947, 10239, 23415, 77772, 356748],
];

/** Where x falls on an increasing grid: the cell's lower index and the fraction along it in ln x (clamped to the ends). */
function locate(grid: number[], x: number): [number, number] {
  if (x <= grid[0]!) return [0, 0];
  const last = grid.length - 1;
  if (x >= grid[last]!) return [last - 1, 1];
  let i = 0;
  while (grid[i + 1]! < x) i++;
  return [i, Math.log(x / grid[i]!) / Math.log(grid[i + 1]! / grid[i]!)];
}

/**
 * design_days for a deadline of `days` at `perDay` runs a day: the fitted table, interpolated bilinearly in
 * ln(deadline) and ln(runs a day) on ln(design_days); outside the grid, its edge.
 */
export function deadlineDesignDays(days: number, perDay: number, table: number[][] = DEADLINE_DESIGN): number {
  const [i, u] = locate(DEADLINE_PER_DAY, perDay);
  const [j, v] = locate(DEADLINE_DAYS, days);
  const ln = (a: number, b: number): number => Math.log(table[a]![b]!);
  const at = (a: number): number => (1 - v) * ln(a, j) + v * ln(a, j + 1);
  return Math.exp((1 - u) * at(i) + u * at(i + 1));
}
