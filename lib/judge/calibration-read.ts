// judgeloop calibrate's IO side: the judgments, user verdicts, races and race choices of a state folder.
import type { Config } from '../config/config.js';
import type { Judgment, Race, RaceChoice, UserVerdict } from '../schema/types.generated.js';
import type { StateStore } from '../store/store.js';
import { calibrate, type Calibration } from './calibration.js';

const ok = <T>(store: StateStore, kind: Parameters<StateStore['readAll']>[0]): T[] =>
  store.readAll<T>(kind).flatMap((r) => ('value' in r ? [r.value] : []));

/** The calibration of the state folder's records at judge.calibration_floor. */
export function calibrationOf(store: StateStore, config: Config): Calibration {
  return calibrate({
    judgments: ok<Judgment>(store, 'judgments'),
    userVerdicts: ok<UserVerdict>(store, 'user_verdicts'),
    races: ok<Race>(store, 'races'),
    choices: ok<RaceChoice>(store, 'race_choices'),
    floor: config.judge.calibration_floor,
  });
}
