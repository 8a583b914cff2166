// bin/parse-output: run the test or lint output parsers on a file or stdin and print the counts as JSON.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { LINTERS, TEST_RUNNERS, parseLintOutput, parseTestOutput } from './lib/parsers/index.js';

export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  readStdin: () => string;
}

const USAGE = 'usage: parse-output tests|lint [--runner NAME] [FILE|-]';

/**
 * Exit codes: 0 counts printed; 1 the output was not recognised as any known runner's or linter's
 * (one line on stderr, nothing on stdout); 2 usage or bad input (unknown kind or runner, unreadable file).
 */
export function run(argv: readonly string[], io: Io): number {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, options: { runner: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  } catch (err) {
    io.stderr(`parse-output: ${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (parsed.values.help) { io.stdout(`${USAGE}\n`); return 0; }
  const [kind, file = '-', ...extra] = parsed.positionals;
  if ((kind !== 'tests' && kind !== 'lint') || extra.length > 0) {
    io.stderr(`parse-output: expected "tests" or "lint" and at most one FILE\n${USAGE}\n`);
    return 2;
  }
  const name = parsed.values.runner;
  const known = kind === 'tests' ? TEST_RUNNERS : LINTERS;
  if (name !== undefined && !known.includes(name)) {
    io.stderr(`parse-output: --runner: unknown ${kind === 'tests' ? 'test runner' : 'linter'} "${name}"; expected one of: ${known.join(', ')}\n`);
    return 2;
  }
  let text: string;
  try {
    text = file === '-' ? io.readStdin() : readFileSync(file, 'utf8');
  } catch (err) {
    io.stderr(`parse-output: ${file === '-' ? 'stdin' : file}: cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}\n`);
    return 2;
  }
  const opts = name === undefined ? {} : { name };
  const counts = kind === 'tests' ? parseTestOutput(text, opts) : parseLintOutput(text, opts);
  if (!counts) {
    const what = name ?? (kind === 'tests' ? 'any known test runner' : 'any known linter');
    io.stderr(`parse-output: ${file === '-' ? 'stdin' : file}: output not recognised as ${what}\n`);
    return 1;
  }
  io.stdout(`${JSON.stringify(counts)}\n`);
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = run(process.argv.slice(2), {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    readStdin: () => readFileSync(0, 'utf8'),
  });
}
