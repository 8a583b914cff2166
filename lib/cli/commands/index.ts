// Every command's definition, in ./names.ts order (a test keeps the two in step): for `judgeloop help` and completion.
import type { CommandDef } from '../command.js';
import { ACCEPT } from './accept.js';
import { AGENTS } from './agents.js';
import { BASELINES } from './baselines.js';
import { CALIBRATE } from './calibrate.js';
import { COLLECT } from './collect.js';
import { CONFIG_COMMAND } from './config.js';
import { DOCTOR } from './doctor.js';
import { INIT } from './init.js';
import { JUDGE } from './judge.js';
import { PARSE_OUTPUT } from './parse-output.js';
import { RACE } from './race.js';
import { RATE } from './rate.js';
import { RATINGS } from './ratings.js';
import { RECORD } from './record.js';
import { REFS } from './refs.js';
import { REPORT } from './report.js';
import { ROUTE } from './route.js';
import { SCORE_TEMPLATES } from './score-templates.js';
import { SELECT_TEMPLATE } from './select-template.js';

export const COMMANDS: readonly CommandDef[] = [
  RECORD,
  COLLECT,
  JUDGE,
  RACE,
  ACCEPT,
  SCORE_TEMPLATES,
  SELECT_TEMPLATE,
  RATE,
  RATINGS,
  ROUTE,
  AGENTS,
  PARSE_OUTPUT,
  CONFIG_COMMAND,
  REPORT,
  DOCTOR,
  INIT,
  BASELINES,
  REFS,
  CALIBRATE,
];
