// bin/parse-output: run the test or lint output parsers on a file or stdin (and a runner's report) and print the counts as JSON.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { HelpRequest } from '../lib/cli/cli.js';
import { parse, usage } from '../lib/cli/command.js';
import { PARSE_OUTPUT } from '../lib/cli/commands/parse-output.js';
import { isUserError } from '../lib/base/errors.js';
import {
  LINTERS,
  TEST_RUNNERS,
  explainTestOutput,
  parseLintOutput,
  parseTestOutput,
  type TestCounts,
} from '../lib/collector/parsers/index.js';
import { reconcile } from '../lib/collector/parsers/reconcile.js';
import { REPORT_FORMATS, readReport, type ReportFormat } from '../lib/collector/parsers/reports.js';

export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  readStdin: () => string;
}

const USAGE = usage(PARSE_OUTPUT);

/** The report's format from --format, else from its content (XML is JUnit; Jest's JSON has testResults). */
function sniff(text: string): ReportFormat | null {
  const t = text.trimStart();
  if (t.startsWith('<')) return 'junit';
  if (/"testResults"\s*:/.test(t)) return 'jest-json';
  if (/"summary_line"\s*:/.test(t)) return 'rspec-json';
  if (/"stats"\s*:/.test(t)) return 'mocha-json';
  return null;
}

function readText(file: string, io: Io): string | { error: string } {
  try {
    return file === '-' ? io.readStdin() : readFileSync(file, 'utf8');
  } catch (err) {
    return {
      error: `parse-output: ${file === '-' ? 'stdin' : file}: cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}\n`,
    };
  }
}

function explainLines(counts: TestCounts, text: string | null): string {
  const out: string[] = [];
  if (counts.source === 'report' && counts.cases) {
    for (const c of counts.cases)
      out.push(
        `# report: ${c.status.padEnd(7)} ${c.id}${c.excerpt ? `  — ${c.excerpt.split('\n')[0]?.slice(0, 120)}` : ''}`,
      );
  }
  if (text !== null)
    for (const e of explainTestOutput(text, counts))
      out.push(`# ${e.line ? `line ${e.line}` : '...'}: ${e.role}: ${e.text}`);
  for (const n of counts.notes ?? []) out.push(`# note: ${n}`);
  return out.length ? `${out.join('\n')}\n` : '';
}

/**
 * Exit codes: 0 counts printed; 1 the output was not recognised as any known runner's or linter's
 * (one line on stderr, nothing on stdout); 2 usage or bad input (unknown kind or runner, unreadable file).
 */
export function run(argv: readonly string[], io: Io): number {
  let parsed: ReturnType<typeof parse<(typeof PARSE_OUTPUT)['flags']>>;
  try {
    parsed = parse(PARSE_OUTPUT, argv);
  } catch (err) {
    // --help and --version answer on stdout; a usage error is one line (this command has no execute()).
    if (err instanceof HelpRequest) {
      io.stdout(`${err.usage}\n`);
      return 0;
    }
    if (!isUserError(err)) throw err;
    io.stderr(`${err.message}\n`);
    return 2;
  }
  const v = parsed.values;
  const [kind, fileArg, ...extra] = parsed.positionals;
  if (extra.length > 0) {
    io.stderr(`parse-output: expected at most one FILE\n${USAGE}\n`);
    return 2;
  }
  if ((v.report !== undefined || v.format !== undefined) && kind !== 'tests') {
    io.stderr('parse-output: --report and --format apply to tests only\n');
    return 2;
  }
  if (v.format !== undefined && !(REPORT_FORMATS as readonly string[]).includes(v.format)) {
    io.stderr(
      `parse-output: --format: unknown report format "${v.format}"; expected one of: ${REPORT_FORMATS.join(', ')}\n`,
    );
    return 2;
  }
  const name = v.runner;
  const known = kind === 'tests' ? TEST_RUNNERS : LINTERS;
  if (name !== undefined && !known.includes(name)) {
    io.stderr(
      `parse-output: --runner: unknown ${kind === 'tests' ? 'test runner' : 'linter'} "${name}"; expected one of: ${known.join(', ')}\n`,
    );
    return 2;
  }
  // With --report alone the console text is optional; without it, FILE defaults to stdin.
  const file = fileArg ?? (v.report !== undefined ? null : '-');
  const text = file === null ? null : readText(file, io);
  if (text !== null && typeof text !== 'string') {
    io.stderr(text.error);
    return 2;
  }
  const opts = name === undefined ? {} : { name };
  if (kind === 'lint') {
    const counts = parseLintOutput(text as string, opts);
    if (!counts) {
      io.stderr(
        `parse-output: ${file === '-' ? 'stdin' : file}: output not recognised as ${name ?? 'any known linter'}\n`,
      );
      return 1;
    }
    io.stdout(`${JSON.stringify(counts)}\n`);
    return 0;
  }
  const consoleCounts = text === null ? null : parseTestOutput(text, opts);
  let counts = consoleCounts;
  if (v.report !== undefined) {
    const reportText = readText(v.report, io);
    if (typeof reportText !== 'string') {
      io.stderr(reportText.error);
      return 2;
    }
    const format = (v.format as ReportFormat | undefined) ?? sniff(reportText);
    const report = format ? readReport(format, reportText, name ? { runner: name } : {}) : null;
    if (!report) {
      io.stderr(`parse-output: ${v.report}: not a ${format ?? 'JUnit XML, Jest JSON or Mocha JSON'} report\n`);
      return 1;
    }
    counts = reconcile(consoleCounts, report);
  }
  if (!counts) {
    io.stderr(
      `parse-output: ${file === '-' ? 'stdin' : file}: output not recognised as ${name ?? 'any known test runner'}\n`,
    );
    return 1;
  }
  io.stdout(`${JSON.stringify(counts)}\n`);
  if (v.explain) io.stdout(explainLines(counts, typeof text === 'string' ? text : null));
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = run(process.argv.slice(2), {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    readStdin: () => readFileSync(0, 'utf8'),
  });
}
