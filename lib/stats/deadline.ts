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

/**
 * Where x falls on an increasing grid: the cell's lower index and the fraction along it in `f(x)` (ln x unless told;
 * clamped to the ends).
 */
export function locate(grid: number[], x: number, f: (v: number) => number = Math.log): [number, number] {
  if (x <= grid[0]!) return [0, 0];
  const last = grid.length - 1;
  if (x >= grid[last]!) return [last - 1, 1];
  let i = 0;
  while (grid[i + 1]! < x) i++;
  return [i, (f(x) - f(grid[i]!)) / (f(grid[i + 1]!) - f(grid[i]!))];
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

/** The grid of the level factor: the window in runs, the reference's runs, its estimated full-pass rate. */
export const FACTOR_WINDOW = [12, 20, 70];
export const FACTOR_REFERENCE = [80, 150, 300];
export const FACTOR_LEVEL = [0.3, 0.5, 0.6, 0.7, 0.8, 0.9];

/**
 * The design ARL's factor per window (FACTOR_WINDOW), reference runs (FACTOR_REFERENCE) and estimated level
 * (FACTOR_LEVEL) that holds the false-alarm rate where the table above (p0 0.6, 300 runs) does not: bench/drift-deadline.ts.
 */
export const DEADLINE_FACTOR: number[][][] = [
  [
    [3.61, 2.11, 2.32, 1.7, 2.09, 9.59],
    [3.53, 1.34, 1.3, 1.42, 1.54, 2.37],
    [2.84, 1.08, 1, 1, 1.19, 1.42],
  ],
  [
    [3.43, 3.52, 2.9, 3.06, 4.83, 35.3],
    [1.97, 1.61, 1.53, 1.61, 1.85, 3.81],
    [2.05, 1.08, 1, 1.02, 1.34, 1.63],
  ],
  [
    [10.5, 28.8, 49.4, 74.6, 175, 2420],
    [2.84, 3.29, 4.61, 5.08, 7.29, 22.6],
    [1.05, 1.04, 1, 1.21, 1.35, 2.45],
  ],
];

/**
 * The factor on a deadline window's design ARL for a window of w runs whose reference holds n runs at estimated rate
 * level: the fitted table interpolated on ln(factor), in ln w, ln n and linearly in the level; outside the grid, its edge.
 */
export function deadlineFactor(w: number, n: number, level: number, table: number[][][] = DEADLINE_FACTOR): number {
  const [i, u] = locate(FACTOR_WINDOW, w);
  const [j, v] = locate(FACTOR_REFERENCE, n);
  const [k, s] = locate(FACTOR_LEVEL, level, (x) => x);
  const ln = (a: number, b: number, c: number): number => Math.log(table[a]![b]![c]!);
  const atLevel = (a: number, b: number): number => (1 - s) * ln(a, b, k) + s * ln(a, b, k + 1);
  const atRef = (a: number): number => (1 - v) * atLevel(a, j) + v * atLevel(a, j + 1);
  return Math.exp((1 - u) * atRef(i) + u * atRef(i + 1));
}
