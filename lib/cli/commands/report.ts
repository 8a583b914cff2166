import { defineCommand } from '../command.js';
import { CONFIG, STATE_ENV } from './common.js';

export const REPORT = defineCommand({
  name: 'report',
  summary: 'writes one self-contained HTML page of templates, races, agents and the judge from state/ (opens offline)',
  flags: {
    out: { type: 'string', placeholder: 'FILE', default: 'judgeloop-report.html', help: 'the HTML file to write' },
    'state-dir': {
      type: 'string',
      multiple: true,
      placeholder: 'DIR',
      help: "another machine's state folder read as one with this one (replaces the config's state_dirs)",
    },
    since: { type: 'string', placeholder: 'DATE', help: 'only what happened from this date or ISO time on' },
    template: { type: 'string', placeholder: 'T', help: 'only this template in the templates section' },
    race: { type: 'string', placeholder: 'ID', help: 'only this race in the races section' },
    agent: { type: 'string', placeholder: 'A', help: 'only this agent in the agents section' },
    config: CONFIG,
  },
  env: [...STATE_ENV, 'JUDGE_ENABLED', 'JUDGE_PHASE'],
  exit: { 0: 'written (its path on stdout)', 1: 'the file could not be written', 2: 'usage or config' },
  examples: ['report', 'report --out /tmp/week.html --since 2026-01-01 --agent claude-code'],
});
