// Every command's definition, in package.json "bin" order (a test keeps the two in step): for the completion script.
import type { CommandDef } from '../command.js';
import { ACCEPT } from './accept.js';
import { AGENTS } from './agents.js';
import { COLLECT } from './collect.js';
import { CONFIG_COMMAND } from './config.js';
import { JUDGE } from './judge.js';
import { PARSE_OUTPUT } from './parse-output.js';
import { RACE } from './race.js';
import { RATE } from './rate.js';
import { RATINGS } from './ratings.js';
import { RECORD } from './record.js';
import { REPORT } from './report.js';
import { ROUTE } from './route.js';
import { SCORE_TEMPLATES } from './score-templates.js';
import { SELECT_TEMPLATE } from './select-template.js';

export const COMMANDS: readonly CommandDef[] = [
  COLLECT,
  JUDGE,
  PARSE_OUTPUT,
  SCORE_TEMPLATES,
  SELECT_TEMPLATE,
  RATE,
  RATINGS,
  ROUTE,
  AGENTS,
  RACE,
  ACCEPT,
  RECORD,
  CONFIG_COMMAND,
  REPORT,
];
