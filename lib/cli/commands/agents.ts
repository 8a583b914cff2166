import { defineCommand } from '../command.js';
import { CONFIG, STATE_ENV } from './common.js';

export const AGENTS = defineCommand({
  name: 'agents',
  summary: 'registers and updates agents (state/agents/<slug>.json); rating fields change only through the ratings log',
  usage: [
    'add SLUG [--max-complexity 1-10] [--rating 0-10] [--reasoning-rating 0-10] [--cost-per-million USD] [--best-usage TEXT] [--commands a,b] [--disabled]',
    'set SLUG [same flags] [--enabled|--disabled] [--reason TEXT]',
    'enable SLUG | disable SLUG',
    'list [--json]',
    'rebuild SLUG',
  ],
  flags: {
    quiet: { type: 'boolean', help: 'no state-folder line on stderr' },
    'max-complexity': { type: 'string', placeholder: '1-10', help: 'the most complex task it is routed' },
    rating: { type: 'string', placeholder: '0-10', help: 'its rating' },
    'reasoning-rating': { type: 'string', placeholder: '0-10', help: 'its rating for reasoning disciplines' },
    'cost-per-million': { type: 'string', placeholder: 'USD', help: 'its price per million tokens' },
    'best-usage': { type: 'string', placeholder: 'TEXT', help: 'what it is best at' },
    commands: { type: 'string', placeholder: 'a,b', help: 'the commands it may be routed (default: all)' },
    enabled: { type: 'boolean', help: 'routable' },
    disabled: { type: 'boolean', help: 'never routed' },
    reason: { type: 'string', placeholder: 'TEXT', help: 'why (set: logged with the change)' },
    json: { type: 'boolean', help: 'the profile(s) as JSON on stdout' },
    config: CONFIG,
  },
  subcommands: [
    { name: 'add', args: 'SLUG', summary: 'register an agent' },
    { name: 'set', args: 'SLUG', summary: "change an agent's fields" },
    { name: 'enable', args: 'SLUG', summary: 'make it routable' },
    { name: 'disable', args: 'SLUG', summary: 'never route it (an agent first seen in a rated run starts disabled)' },
    { name: 'list', summary: 'every agent' },
    { name: 'rebuild', args: 'SLUG', summary: 'rewrite the profile from state/ratings/SLUG.jsonl' },
  ],
  env: [...STATE_ENV],
  exit: { 0: 'done', 2: 'usage or unknown agent' },
  examples: ['agents add claude-code --cost-per-million 15 --max-complexity 6', 'agents list --json'],
});
