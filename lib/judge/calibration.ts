// The judge and the races against the user's recorded choices (issue 37, item 6): agreement, Cohen's kappa with its
// interval, the confusion tables, per dimension; a warning under judge.calibration_floor. Pure.
import type { Interval, Judgment, Race, RaceChoice, UserVerdict } from '../schema/types.generated.js';
import { textTable } from '../report/table.js';
import { cohensKappa, type Kappa } from '../stats/kappa.js';
import { wilsonInterval } from '../stats/stats.js';

/** A dimension scores a pass at this, as in the judge's own verdict (every dimension >= 0.7). */
const DIMENSION_PASS = 0.7;

interface AgreementTable {
  /** verdicts | dimension:<name> | races */
  what: string;
  /** The two labels of rows (judge or race) and columns (user), in order. */
  labels: [string, string];
  /** table[i][j]: the judge (or race) said labels[i], the user labels[j]. */
  table: [[number, number], [number, number]];
  n: number;
  /** What the agreement is counted over: runs, or races (whose table counts their solutions). */
  agreed_of: number;
  /** The share the two agree on (for races: races whose winner the user chose). */
  agreement: number | null;
  agreement_interval: Interval;
  kappa: Kappa | null;
  below_floor: boolean;
}

interface CalibrationPair {
  bead: string;
  dimension: string | null;
  judge: 'pass' | 'fail';
  judge_verdict: string;
  user: 'pass' | 'fail';
}

export interface Calibration {
  floor: number;
  verdicts: AgreementTable;
  dimensions: AgreementTable[];
  races: AgreementTable;
  pairs: CalibrationPair[];
  /** User verdicts with no judged judgment to compare with. */
  unjudged: string[];
  /** Race choices left out: manual_edit, or the race record is missing. */
  races_left_out: string[];
  warnings: string[];
}

function agreementTable(
  what: string,
  labels: [string, string],
  table: [[number, number], [number, number]],
  floor: number,
  agreed?: { k: number; n: number },
): AgreementTable {
  const n = table[0][0] + table[0][1] + table[1][0] + table[1][1];
  const a = agreed ?? { k: table[0][0] + table[1][1], n };
  const agreement = a.n ? a.k / a.n : null;
  return {
    what,
    labels,
    table,
    n,
    agreed_of: a.n,
    agreement,
    agreement_interval: wilsonInterval(a.k, a.n),
    kappa: cohensKappa(table),
    below_floor: agreement !== null && agreement < floor,
  };
}

const empty = (): [[number, number], [number, number]] => [
  [0, 0],
  [0, 0],
];
const idx = (v: 'pass' | 'fail'): 0 | 1 => (v === 'pass' ? 0 : 1);

/**
 * The judge's judged verdicts against the user's (the judge's partial counts as fail: not accepted as it is; a
 * verdict naming a dimension is compared with that dimension's score at 0.7 too), and each race's winner against
 * the user's choice (per solution: chosen or not; manual_edit and races without a record are left out).
 */
export function calibrate(input: {
  judgments: readonly Judgment[];
  userVerdicts: readonly UserVerdict[];
  races: readonly Race[];
  choices: readonly RaceChoice[];
  floor: number;
}): Calibration {
  const judged = new Map(input.judgments.filter((j) => j.status === 'judged').map((j) => [j.bead, j]));
  const pairs: CalibrationPair[] = [];
  const unjudged: string[] = [];
  const verdicts = empty();
  const dims = new Map<string, [[number, number], [number, number]]>();
  for (const u of [...input.userVerdicts].sort((a, b) => a.bead.localeCompare(b.bead))) {
    const j = judged.get(u.bead);
    if (!j?.verdict) {
      unjudged.push(u.bead);
      continue;
    }
    const jv = j.verdict === 'pass' ? 'pass' : 'fail';
    verdicts[idx(jv)][idx(u.verdict)]++;
    pairs.push({ bead: u.bead, dimension: null, judge: jv, judge_verdict: j.verdict, user: u.verdict });
    if (u.dimension && j.dimensions) {
      const score = j.dimensions[u.dimension];
      const dv = score >= DIMENSION_PASS ? 'pass' : 'fail';
      const t = dims.get(u.dimension) ?? empty();
      t[idx(dv)][idx(u.verdict)]++;
      dims.set(u.dimension, t);
      pairs.push({ bead: u.bead, dimension: u.dimension, judge: dv, judge_verdict: score.toFixed(2), user: u.verdict });
    }
  }
  const races = new Map(input.races.map((r) => [r.race_id, r]));
  const raceTable = empty();
  const left: string[] = [];
  let agreedRaces = 0;
  let countedRaces = 0;
  for (const c of [...input.choices].sort((a, b) => a.ranking_id.localeCompare(b.ranking_id))) {
    const race = races.get(c.ranking_id);
    if (c.user_choice === 'manual_edit' || !race || c.recommended_solution_id === null) {
      left.push(c.ranking_id);
      continue;
    }
    countedRaces++;
    if (c.chosen_solution_id !== null && c.chosen_solution_id === c.recommended_solution_id) agreedRaces++;
    for (const s of race.solutions) {
      const byRace = s.id === c.recommended_solution_id ? 0 : 1;
      const byUser = s.id === c.chosen_solution_id ? 0 : 1;
      raceTable[byRace][byUser]++;
    }
  }
  const floor = input.floor;
  const out: Calibration = {
    floor,
    verdicts: agreementTable('verdicts', ['pass', 'fail'], verdicts, floor),
    dimensions: [...dims.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([d, t]) => agreementTable(`dimension:${d}`, ['pass', 'fail'], t, floor)),
    races: agreementTable('races', ['winner', 'not winner'], raceTable, floor, { k: agreedRaces, n: countedRaces }),
    pairs,
    unjudged,
    races_left_out: left,
    warnings: [],
  };
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  for (const t of [out.verdicts, ...out.dimensions, out.races]) {
    if (!t.below_floor) continue;
    const who = t.what === 'races' ? "the races' winners agree" : 'the judge agrees';
    const on = t.what === 'races' ? 'races' : t.what === 'verdicts' ? 'verdicts' : `${t.what.slice(10)} verdicts`;
    out.warnings.push(
      `${who} with your ${on} on ${Math.round(t.agreement! * t.agreed_of)} of ${t.agreed_of} (${pct(t.agreement!)}), below the floor ${pct(floor)} (judge.calibration_floor)`,
    );
  }
  return out;
}

const pctOf = (x: number | null | undefined): string =>
  x === null || x === undefined ? '—' : `${Math.round(x * 100)}%`;
const num = (x: number | null | undefined): string => (x === null || x === undefined ? '—' : x.toFixed(2));

/** One row per agreement table: n, agreement [interval], kappa [interval], the four cells. */
export function calibrationRows(c: Calibration): string[][] {
  return [c.verdicts, ...c.dimensions, c.races].map((t: AgreementTable) => [
    t.what,
    String(t.agreed_of),
    `${pctOf(t.agreement)}${t.agreement_interval ? ` [${pctOf(t.agreement_interval.low)}, ${pctOf(t.agreement_interval.high)}]` : ''}`,
    t.kappa?.kappa === null || t.kappa === null
      ? '—'
      : `${num(t.kappa.kappa)} [${num(t.kappa.low)}, ${num(t.kappa.high)}]`,
    `${t.table[0][0]} ${t.table[0][1]} / ${t.table[1][0]} ${t.table[1][1]}`,
    t.below_floor ? 'below floor' : '',
  ]);
}

export const CALIBRATION_HEADER = ['compared', 'n', 'agreement [95%]', 'kappa [95%]', 'table', ''];

export function calibrationText(c: Calibration): string {
  const lines = [
    `Calibration against your recorded choices (floor ${pctOf(c.floor)}: judge.calibration_floor)`,
    textTable(CALIBRATION_HEADER, calibrationRows(c)),
    'table: judge (or race) pass|winner row first: agreed-pass disagreed / disagreed agreed-fail; races count solutions.',
  ];
  if (c.unjudged.length) lines.push(`Your verdicts with no judged run to compare: ${c.unjudged.join(', ')}`);
  if (c.races_left_out.length)
    lines.push(`Race choices left out (manual edit, no race record): ${c.races_left_out.join(', ')}`);
  const disagreements = c.pairs.filter((p) => p.judge !== p.user);
  if (disagreements.length)
    lines.push(
      'Disagreements:',
      ...disagreements.map(
        (p) => `  ${p.bead}${p.dimension ? ` (${p.dimension})` : ''}: judge ${p.judge_verdict}, you ${p.user}`,
      ),
    );
  return lines.join('\n') + '\n';
}
