// The one command layer: a definition per command generates usage, --help, --version, strict flag errors with
// "did you mean" and completion; node:util parseArgs underneath (docs/design/conventions.md, Flags).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { projectRoot } from '../base/paths.js';
import { closest } from '../base/closest.js';
import { HelpRequest } from './cli.js';
import type { EnvKey } from '../base/env.js';
import { ENV_HELP } from './env-help.js';
import { errorMessage, UserError } from '../base/errors.js';
import { COMMAND_NAMES } from './commands/names.js';

// Process-wide (a command runs from its own bundle, with its own copy of this module), set by bin/judgeloop.
const PREFIX = Symbol.for('judgeloop.command-prefix');

/** Under the dispatcher, usage, help and usage errors say `judgeloop <command>`. */
export function setCommandPrefix(prefix: string): void {
  (globalThis as Record<symbol, unknown>)[PREFIX] = prefix;
}

/** The name a user types for this command: `collect`, or `judgeloop collect` under the dispatcher. */
function shownName(def: CommandDef): string {
  const p = (globalThis as Record<symbol, unknown>)[PREFIX];
  return typeof p === 'string' && p !== def.name ? `${p} ${def.name}` : def.name;
}

const COMMAND_AT = new RegExp(`(^|\\| |<\\(|^\\S+=\\S+ )(${COMMAND_NAMES.join('|')})(?= |$)`, 'g');

/** An example line as typed under the dispatcher: each command name that starts a command gets the prefix. */
function shownExample(def: CommandDef, line: string): string {
  const shown = shownName(def);
  if (shown === def.name) return line;
  const prefix = shown.slice(0, -def.name.length);
  return line.replace(COMMAND_AT, (_m, before: string, cmd: string) => `${before}${prefix}${cmd}`);
}

interface FlagSpec {
  readonly type: 'string' | 'boolean';
  /** One letter: `-x`. `-h` and `-V` are taken (help, version). */
  readonly short?: string;
  /** Repeatable: the value is an array. */
  readonly multiple?: boolean;
  readonly help: string;
  /** The value's name in usage and help (`--config FILE`); default VALUE. */
  readonly placeholder?: string;
  /** Given to parseArgs, and shown in the help. */
  readonly default?: string | boolean;
  /** The values the command accepts (it checks them itself, with its own message); shown and completed. */
  readonly choices?: readonly string[];
}

interface PositionalSpec {
  /** As shown: `<run.json|->`. */
  readonly name: string;
  readonly help: string;
  readonly variadic?: boolean;
  readonly optional?: boolean;
}

interface SubcommandSpec {
  readonly name: string;
  /** The arguments after the name, as shown in the help: `SLUG [flags]`. */
  readonly args?: string;
  readonly summary: string;
}

export type Flags = Readonly<Record<string, FlagSpec>>;

export interface CommandDef<F extends Flags = Flags> {
  readonly name: string;
  /** One line: what the command does. */
  readonly summary: string;
  /** Lines printed under the summary in --help. */
  readonly description?: readonly string[];
  /** Synopsis lines after the name (one per mode; a line starting with a space continues the one above); default: generated. */
  readonly usage?: readonly string[];
  readonly flags: F;
  readonly positionals?: readonly PositionalSpec[];
  /** The first positional names one of these (`agents add …`). */
  readonly subcommands?: readonly SubcommandSpec[];
  /** The environment variables the command reads (described in lib/cli/env-help.ts). */
  readonly env?: readonly EnvKey[];
  /** Exit code (or a word such as `other`) → meaning. */
  readonly exit: Readonly<Record<string, string>>;
  readonly examples?: readonly string[];
}

type ValueOf<S extends FlagSpec> = S['type'] extends 'boolean'
  ? S extends { multiple: true }
    ? boolean[]
    : boolean
  : S extends { multiple: true }
    ? string[]
    : string;
type HasDefault<S> = S extends { default: string | boolean } ? true : false;

/** The parsed flags: present when given (or defaulted), typed by the definition. */
type FlagValues<F extends Flags> = {
  -readonly [K in keyof F as HasDefault<F[K]> extends true ? K : never]: ValueOf<F[K]>;
} & {
  -readonly [K in keyof F as HasDefault<F[K]> extends true ? never : K]?: ValueOf<F[K]>;
};

export interface Parsed<F extends Flags> {
  values: FlagValues<F>;
  positionals: string[];
}

const BUILTIN: Flags = {
  help: { type: 'boolean', short: 'h', help: 'show this help and exit' },
  version: { type: 'boolean', short: 'V', help: 'print the version and exit' },
};

/** A command's definition, kept as written (the `const` parameter keeps the flag types for `parse`). */
export function defineCommand<const F extends Flags>(def: CommandDef<F>): CommandDef<F> {
  for (const [name, s] of Object.entries(def.flags)) {
    if (name in BUILTIN || s.short === 'h' || s.short === 'V')
      throw new Error(`${def.name}: --${name}${s.short ? ` (-${s.short})` : ''} is built in`);
  }
  return def;
}

/** package.json's version (read only when asked). */
export function packageVersion(): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/** `<cmd> <version> (bundle <file> | modules)`: what runs, for the bin/ shim chooses silently. */
export function versionLine(name: string): string {
  const url = import.meta.url;
  return `${name} ${packageVersion() ?? 'unknown'} (${url.endsWith('.mjs') ? `bundle ${fileURLToPath(url)}` : 'modules'})`;
}

/**
 * The flags and positionals of `argv`, or a throw: `HelpRequest` for --help/-h and --version/-V (execute() prints
 * it on stdout, exit 0), a one-line `UserError` (exit 2) for an unknown option (with the closest names), an option
 * without its value or a switch given one, an unknown subcommand, or an argument to a command that takes none.
 * A negative number after an option that takes a value is its value (`--quality -1`), so range checks can answer.
 */
export function parse<F extends Flags>(def: CommandDef<F>, argv: readonly string[]): Parsed<F> {
  const flags: Flags = { ...def.flags, ...BUILTIN };
  const options = Object.fromEntries(
    Object.entries(flags).map(([name, s]) => [
      name,
      {
        type: s.type,
        ...(s.short ? { short: s.short } : {}),
        ...(s.multiple ? { multiple: true } : {}),
        ...(s.default !== undefined ? { default: s.default } : {}),
      },
    ]),
  ) as NonNullable<Parameters<typeof parseArgs>[0]>['options'];
  const args = joinNegativeValues(argv, flags);
  const end = args.indexOf('--');
  const head = end === -1 ? args : args.slice(0, end);
  const { tokens } = parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true });
  const asked = (name: string, short: string) =>
    head.includes(`--${name}`) ||
    head.includes(`-${short}`) ||
    tokens.some((t) => t.kind === 'option' && t.name === name);
  if (asked('help', 'h')) throw new HelpRequest(helpText(def));
  if (asked('version', 'V')) throw new HelpRequest(versionLine(def.name));
  for (const t of tokens) {
    if (t.kind !== 'option') continue;
    const spec = flags[t.name];
    if (!spec) {
      const long = t.rawName.startsWith('--') ? t.rawName.slice(2) : null;
      const near = long === null ? [] : closest(long, Object.keys(flags));
      throw usageError(
        def,
        `unknown option '${t.rawName}'${near.length ? ` (did you mean ${orList(near.map((n) => `'--${n}'`))}?)` : ''}`,
      );
    }
    if (
      spec.type === 'string' &&
      (t.value === undefined || (!t.inlineValue && t.value.length > 1 && t.value.startsWith('-')))
    ) {
      throw usageError(
        def,
        `option '${t.rawName}' needs a value (${placeholder(spec)})${t.value === undefined ? '' : `; to give one that starts with '-', write --${t.name}=${t.value}`}`,
      );
    }
    if (spec.type === 'boolean' && t.value !== undefined) throw usageError(def, `option '${t.rawName}' takes no value`);
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch (e) {
    throw usageError(def, errorMessage(e));
  }
  const positionals = parsed.positionals;
  if (def.subcommands) {
    const names = def.subcommands.map((s) => s.name);
    const sub = positionals[0];
    if (sub === undefined) throw usageError(def, `expected a subcommand: ${orList(names)}`);
    if (!names.includes(sub)) {
      const near = closest(sub, names);
      throw usageError(
        def,
        `unknown subcommand '${sub}' (${near.length ? `did you mean ${orList(near.map((n) => `'${n}'`))}?` : `expected ${orList(names)}`})`,
      );
    }
  } else if (!def.positionals?.length && positionals.length) {
    throw usageError(def, `unexpected argument ${JSON.stringify(positionals[0])}`);
  }
  const values = { ...parsed.values } as Record<string, unknown>;
  delete values.help;
  delete values.version;
  return { values: values as FlagValues<F>, positionals };
}

/** A usage error from the layer: one line, naming the command and where its help is. */
function usageError(def: CommandDef, message: string): UserError {
  return new UserError(`${def.name}: ${message}; see '${shownName(def)} --help'`);
}

/**
 * parseArgs refuses `--quality -1` as "ambiguous" (the value looks like an option). Where the option takes a value
 * and the next word is a negative number, join them (`--quality=-1`).
 */
function joinNegativeValues(argv: readonly string[], flags: Flags): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const next = argv[i + 1];
    const name = a.startsWith('--') && !a.includes('=') ? a.slice(2) : null;
    if (name !== null && flags[name]?.type === 'string' && next !== undefined && /^-(?:\d|\.\d|Infinity)/.test(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

export { closest, editDistance } from '../base/closest.js';

function orList(xs: readonly string[]): string {
  return xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} or ${xs[xs.length - 1]}`;
}

const placeholder = (s: FlagSpec): string => s.placeholder ?? (s.choices ? s.choices.join('|') : 'VALUE');

function flagWord(name: string, s: FlagSpec): string {
  return `--${name}${s.type === 'string' ? ` ${placeholder(s)}` : ''}`;
}

function positionalWord(p: PositionalSpec): string {
  const word = `${p.name}${p.variadic ? '...' : ''}`;
  return p.optional ? `[${word}]` : word;
}

/** The synopsis: `usage: <cmd> …` and one line per further mode. */
export function usage(def: CommandDef): string {
  const lines = def.usage ?? [
    [
      def.subcommands ? `${def.subcommands.map((s) => s.name).join('|')}` : '',
      '[options]',
      ...(def.positionals ?? []).map(positionalWord),
    ]
      .filter(Boolean)
      .join(' '),
  ];
  const name = shownName(def);
  const indent = ' '.repeat(`usage: ${name} `.length);
  return lines
    .map((l, i) =>
      i === 0 ? `usage: ${name} ${l}` : l.startsWith(' ') ? `${indent}${l.trimStart()}` : `       ${name} ${l}`,
    )
    .join('\n');
}

function columns(rows: readonly (readonly [string, string])[]): string[] {
  const width = Math.max(0, ...rows.map(([l]) => l.length).filter((n) => n <= 24));
  return rows.flatMap(([left, right]) => {
    const rest = right.split('\n');
    const first =
      left.length > width
        ? [`  ${left}`, `  ${' '.repeat(width)}  ${rest[0]}`]
        : [`  ${left.padEnd(width)}  ${rest[0]}`.trimEnd()];
    return [...first, ...rest.slice(1).map((r) => `  ${' '.repeat(width)}  ${r}`)];
  });
}

/** The full `--help` text: synopsis, summary, arguments, subcommands, options, environment, exit status, examples. */
export function helpText(def: CommandDef): string {
  const out: string[] = [usage(def), '', `${def.name}: ${def.summary}`];
  if (def.description?.length) out.push(...def.description);
  if (def.subcommands?.length) {
    out.push(
      '',
      'Subcommands:',
      ...columns(def.subcommands.map((s) => [`${s.name}${s.args ? ` ${s.args}` : ''}`, s.summary])),
    );
  }
  if (def.positionals?.length)
    out.push('', 'Arguments:', ...columns(def.positionals.map((p) => [positionalWord(p), p.help])));
  const flagRows = Object.entries({ ...def.flags, ...BUILTIN }).map(([name, s]): [string, string] => {
    const extra = [
      s.choices && s.placeholder ? `one of: ${s.choices.join(', ')}` : '',
      s.multiple ? 'repeatable' : '',
      s.default !== undefined && s.default !== false ? `default ${String(s.default)}` : '',
    ].filter(Boolean);
    return [
      `${s.short ? `-${s.short}, ` : ''}${flagWord(name, s)}`,
      `${s.help}${extra.length ? ` (${extra.join('; ')})` : ''}`,
    ];
  });
  out.push('', 'Options:', ...columns(flagRows));
  if (def.env?.length) out.push('', 'Environment:', ...columns(def.env.map((k) => [k, ENV_HELP[k]])));
  out.push('', 'Exit status:', ...columns(Object.entries(def.exit).map(([code, meaning]) => [code, meaning])));
  if (def.examples?.length) out.push('', 'Examples:', ...def.examples.map((e) => `  ${shownExample(def, e)}`));
  return out.join('\n');
}
