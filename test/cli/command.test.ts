// lib/cli/command.ts in process: the parse of a definition, its errors and suggestions, the generated help.
import { describe, expect, it } from 'vitest';
import { HelpRequest } from '../../lib/cli/cli.js';
import { closest, defineCommand, editDistance, helpText, parse, usage } from '../../lib/cli/command.js';
import { COMMANDS } from '../../lib/cli/commands/index.js';
import { ENV_KEYS } from '../../lib/base/env.js';
import { UserError } from '../../lib/base/errors.js';

const DEMO = defineCommand({
  name: 'demo',
  summary: 'a command for the tests',
  flags: {
    json: { type: 'boolean', help: 'JSON out' },
    config: { type: 'string', placeholder: 'FILE', help: 'the config' },
    target: { type: 'string', multiple: true, placeholder: 'TEST', help: 'a target' },
    last: { type: 'string', placeholder: 'N', default: '50', help: 'how many' },
    quality: { type: 'string', placeholder: '0-10', help: 'a number' },
    'rate-agents': { type: 'boolean', help: 'rate' },
    'rating-strict': { type: 'boolean', help: 'strict' },
  },
  positionals: [{ name: '<run.json>', help: 'records', variadic: true }],
  env: ['JUDGELOOP_STATE_DIR'],
  exit: { 0: 'fine', 2: 'usage' },
  examples: ['demo a.json'],
});

const SUBS = defineCommand({
  name: 'subs',
  summary: 'with subcommands',
  flags: { json: { type: 'boolean', help: 'JSON out' } },
  subcommands: [
    { name: 'add', args: 'SLUG', summary: 'add one' },
    { name: 'disable', summary: 'off' },
    { name: 'list', summary: 'all' },
  ],
  exit: { 0: 'fine' },
});

const NONE = defineCommand({ name: 'none', summary: 'takes no argument', flags: {}, exit: { 0: 'fine' } });

function thrown(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error('nothing thrown');
}

describe('parse', () => {
  it('typed values, repeatable flags, defaults and positionals', () => {
    const { values, positionals } = parse(DEMO, [
      'a.json',
      '--json',
      '--target',
      'x',
      '--target=y',
      '--config',
      'c.json',
      'b.json',
    ]);
    expect(values).toEqual({ json: true, target: ['x', 'y'], config: 'c.json', last: '50' });
    expect(positionals).toEqual(['a.json', 'b.json']);
    expect(parse(DEMO, ['--', '--json']).positionals).toEqual(['--json']);
  });

  it('a negative number after an option that takes a value is its value', () => {
    expect(parse(DEMO, ['--quality', '-1']).values.quality).toBe('-1');
    expect(parse(DEMO, ['--quality', '-.5', 'x']).values.quality).toBe('-.5');
  });

  it('--help, -h and a bundled -h answer with the help text; --version and -V with the version line', () => {
    for (const args of [['--help'], ['-h'], ['x', '--json', '-h'], ['--jsn', '--help']]) {
      const e = thrown(() => parse(DEMO, args));
      expect(e, args.join(' ')).toBeInstanceOf(HelpRequest);
      expect((e as HelpRequest).usage).toBe(helpText(DEMO));
    }
    for (const args of [['--version'], ['-V']])
      expect((thrown(() => parse(DEMO, args)) as HelpRequest).usage).toMatch(
        /^demo \d+\.\d+\.\d+\S* \((bundle .*|modules)\)$/,
      );
    expect(parse(DEMO, ['--', '--help']).positionals).toEqual(['--help']);
  });

  it('an unknown option is one line naming the closest option and the help', () => {
    const cases: [string[], string][] = [
      [['--jsn'], "demo: unknown option '--jsn' (did you mean '--json'?); see 'demo --help'"],
      [['--jsonn'], "demo: unknown option '--jsonn' (did you mean '--json'?); see 'demo --help'"],
      [['--cofnig', 'x'], "demo: unknown option '--cofnig' (did you mean '--config'?); see 'demo --help'"],
      [['--targte=x'], "demo: unknown option '--targte' (did you mean '--target'?); see 'demo --help'"],
      [
        ['--rat'],
        "demo: unknown option '--rat' (did you mean '--rate-agents' or '--rating-strict'?); see 'demo --help'",
      ],
      [['--configuration'], "demo: unknown option '--configuration' (did you mean '--config'?); see 'demo --help'"],
      [['--verison'], "demo: unknown option '--verison' (did you mean '--version'?); see 'demo --help'"],
      [['--zzz'], "demo: unknown option '--zzz'; see 'demo --help'"],
      [['-x'], "demo: unknown option '-x'; see 'demo --help'"],
    ];
    for (const [args, message] of cases) {
      const e = thrown(() => parse(DEMO, args));
      expect(e, args.join(' ')).toBeInstanceOf(UserError);
      expect(e.message).toBe(message);
    }
  });

  it('an option without its value, or a switch given one', () => {
    expect(thrown(() => parse(DEMO, ['x', '--config'])).message).toBe(
      "demo: option '--config' needs a value (FILE); see 'demo --help'",
    );
    expect(thrown(() => parse(DEMO, ['--config', '--json'])).message).toBe(
      "demo: option '--config' needs a value (FILE); to give one that starts with '-', write --config=--json; see 'demo --help'",
    );
    expect(thrown(() => parse(DEMO, ['--json=yes'])).message).toBe(
      "demo: option '--json' takes no value; see 'demo --help'",
    );
    expect(parse(DEMO, ['--config', '-']).values.config).toBe('-');
  });

  it('subcommands: missing, unknown (with the closest), known', () => {
    expect(thrown(() => parse(SUBS, ['--json'])).message).toBe(
      "subs: expected a subcommand: add, disable or list; see 'subs --help'",
    );
    expect(thrown(() => parse(SUBS, ['dissable'])).message).toBe(
      "subs: unknown subcommand 'dissable' (did you mean 'disable'?); see 'subs --help'",
    );
    expect(thrown(() => parse(SUBS, ['frobnicate'])).message).toBe(
      "subs: unknown subcommand 'frobnicate' (expected add, disable or list); see 'subs --help'",
    );
    expect(parse(SUBS, ['add', 'a1', '--json']).positionals).toEqual(['add', 'a1']);
  });

  it('a command without positionals refuses an argument', () => {
    expect(thrown(() => parse(NONE, ['stray'])).message).toBe('none: unexpected argument "stray"; see \'none --help\'');
  });

  it('help and version are built in: a definition cannot take them', () => {
    expect(() =>
      defineCommand({ name: 'bad', summary: '', flags: { help: { type: 'boolean', help: '' } }, exit: {} }),
    ).toThrow(/--help .*built in/);
    expect(() =>
      defineCommand({
        name: 'bad',
        summary: '',
        flags: { verbose: { type: 'boolean', short: 'V', help: '' } },
        exit: {},
      }),
    ).toThrow(/-V.*built in/);
  });
});

describe('suggestions', () => {
  it('edit distance counts a swap of neighbours as one edit', () => {
    expect(editDistance('json', 'json')).toBe(0);
    expect(editDistance('jsno', 'json')).toBe(1);
    expect(editDistance('jsn', 'json')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
  it('within 2 edits (1 for short words), else by prefix; nothing far', () => {
    expect(closest('jsonn', ['json', 'quiet'])).toEqual(['json']);
    expect(closest('qiet', ['json', 'quiet'])).toEqual(['quiet']);
    expect(closest('ab', ['id', 'json'])).toEqual([]);
    expect(closest('dry', ['dry-run', 'drain'])).toEqual(['dry-run']);
    expect(closest('xyzzy', ['json', 'quiet'])).toEqual([]);
  });
});

describe('help text', () => {
  it('names every flag, argument, variable, exit code and example of the definition', () => {
    const h = helpText(DEMO);
    expect(h.startsWith(`${usage(DEMO)}\n\ndemo: a command for the tests\n`)).toBe(true);
    for (const [name, s] of Object.entries(DEMO.flags))
      expect(h).toContain(`--${name}${s.type === 'string' ? ` ${s.placeholder}` : ''}`);
    for (const word of [
      '<run.json>...',
      '-h, --help',
      '-V, --version',
      'JUDGELOOP_STATE_DIR',
      '(repeatable)',
      '(default 50)',
      'Exit status:\n  0  fine\n  2  usage',
      '  demo a.json',
    ])
      expect(h).toContain(word);
    expect(usage(DEMO)).toBe('usage: demo [options] <run.json>...');
    expect(usage(SUBS)).toBe('usage: subs add|disable|list [options]');
  });
});

describe('the definitions of the commands', () => {
  it.each(COMMANDS.map((c) => [c.name, c] as const))(
    '%s: a summary, help for every flag, a placeholder for every value, exit 0 and 2 described, known variables',
    (_name, def) => {
      expect(def.summary.length).toBeGreaterThan(10);
      for (const [flag, s] of Object.entries(def.flags)) {
        expect(s.help.length, flag).toBeGreaterThan(3);
        if (s.type === 'string') expect(s.placeholder ?? s.choices, `--${flag} names its value`).toBeDefined();
      }
      expect(Object.keys(def.exit)).toEqual(expect.arrayContaining(['0', '2']));
      for (const k of def.env ?? []) expect(ENV_KEYS).toContain(k);
      expect(new Set(def.env).size).toBe((def.env ?? []).length);
    },
  );
});
