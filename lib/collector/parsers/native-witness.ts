// The go test and cargo test observer: a wrapper in judgeloop's report folder runs every test binary (go's -exec,
// cargo's target runner) and records its exit status, its output and the runner library's own log (pure).
import type { TestCase } from './types.js';

/** The record the wrappers append to (one `start` and one `end` line per test binary). */
export const NATIVE_RECORD = 'binaries.txt';

/** The target triples whose runner judgeloop sets (cargo reads only the host's; the others are ignored). */
const TRIPLES = ['x86_64-unknown-linux-gnu', 'x86_64-unknown-linux-musl', 'aarch64-unknown-linux-gnu'];
const runnerVar = (t: string): string => `CARGO_TARGET_${t.toUpperCase().replace(/-/g, '_')}_RUNNER`;

const sq = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** The wrapper's name: the run's own (its folder's), so nothing in the tree can have been planted under it. */
const wrapperName = (dir: string, runner: string): string =>
  `judgeloop-${runner}-${(dir.split('/').pop() ?? '').replace(/[^A-Za-z0-9]/g, '-')}`;

/** The shell lines every wrapper shares: its id, the start line; `$bin` is the test binary, `$@` its arguments. */
function head(dir: string, restore: string): string {
  return [
    '#!/bin/sh',
    "# judgeloop's observer: runs one test binary, records its exit status and what the runner library logged.",
    `d=${sq(dir)}`,
    'id=$$.$(date +%s%N)',
    restore,
    'bin=$1',
    'shift',
    `printf 'start\\t%s\\t%s\\t%s\\n' "$id" "$PWD" "$bin" >> "$d/${NATIVE_RECORD}"`,
  ].join('\n');
}

// The binary's status as its own (a signal raised again on the wrapper: go and cargo report it as they would).
const TAIL = [
  `printf 'end\\t%s\\t%s\\n' "$id" "$st" >> "$d/${NATIVE_RECORD}"`,
  'if [ "$st" -gt 128 ] && [ "$st" -lt 160 ]; then kill -$((st - 128)) $$; fi',
  'exit "$st"',
  '',
].join('\n');

export interface NativeWitness {
  files: Record<string, string>;
  env: Record<string, string>;
}

/**
 * go test: `-exec` through GOFLAGS (so `npm test` or `make test` that end in go test run it too; go build and vet
 * ignore it). package testing writes its log (`-test.testlogfile`) only when M.Run reaches its end: a binary that
 * exits from inside its run leaves it empty. The output is copied beside the record.
 */
export function goWitness(dir: string, env: NodeJS.ProcessEnv): NativeWitness & { flag: string } {
  const name = wrapperName(dir, 'go');
  const flag = `-exec=${dir}/${name}`;
  // The binary gets GOFLAGS without our flag (a go command a test runs is not observed as a test binary).
  const restore = `GOFLAGS=$(printf '%s' "$GOFLAGS" | sed 's# *${flag}##'); [ -n "$GOFLAGS" ] && export GOFLAGS || unset GOFLAGS`;
  const script = [
    head(dir, restore),
    '{ "$bin" "-test.testlogfile=$d/tl-$id" "$@" 2>&1; echo $? > "$d/st-$id"; } | tee "$d/out-$id"',
    'st=$(cat "$d/st-$id" 2>/dev/null || echo 255)',
    TAIL,
  ].join('\n');
  return { files: { [name]: script }, env: { GOFLAGS: `${env.GOFLAGS ?? ''} ${flag}`.trim() }, flag };
}

const LOGFILE_WARNING = 'warning: `--logfile` is deprecated';

/** cargo test: the target runner through the environment (it wins over config files); libtest logs to `--logfile`. */
export function cargoWitness(dir: string): NativeWitness {
  const name = wrapperName(dir, 'cargo');
  const script = [
    head(dir, `unset ${TRIPLES.map(runnerVar).join(' ')}`),
    // libtest's warning that --logfile is deprecated is ours, not the binary's: taken out. Both of the binary's streams
    // go to stderr, the pipe cargo's `Running` headers take: one pipe keeps each binary's lines under its own header.
    `{ "$bin" --logfile "$d/log-$id" "$@" 2>&1; echo $? > "$d/st-$id"; } | grep --line-buffered -v -x -F ${sq(LOGFILE_WARNING)} >&2`,
    'st=$(cat "$d/st-$id" 2>/dev/null || echo 255)',
    TAIL,
  ].join('\n');
  return {
    files: { [name]: script },
    env: Object.fromEntries(TRIPLES.map((t) => [runnerVar(t), `${dir}/${name}`])),
  };
}

/** One test binary as the wrapper saw it: where it ran, its status (null: never seen to end), its files. */
interface BinaryRun {
  id: string;
  dir: string;
  binary: string;
  status: number | null;
  /** go: the binary's output; cargo: null (its console block is cargo's). */
  output: string | null;
  /** go: package testing's log; cargo: libtest's log; null when the file was never written. */
  log: string | null;
}

export interface NativeRecord {
  runs: BinaryRun[];
  /** Lines no wrapper writes: a second end, an end with no start, an unknown line. */
  forged: number;
}

/** The record's lines; `file(name)` reads a file the wrapper wrote beside it (null when absent). */
export function parseNativeRecord(text: string, file: (name: string) => string | null): NativeRecord {
  const runs = new Map<string, BinaryRun>();
  let forged = 0;
  for (const line of text.split('\n')) {
    if (!line) continue;
    const f = line.split('\t');
    const id = f[1] ?? '';
    if (f[0] === 'start' && f.length === 4 && !runs.has(id))
      runs.set(id, { id, dir: f[2] as string, binary: f[3] as string, status: null, output: null, log: null });
    else if (f[0] === 'end' && f.length === 3 && runs.get(id)?.status === null && /^\d+$/.test(f[2] as string))
      (runs.get(id) as BinaryRun).status = Number(f[2]);
    else forged++;
  }
  for (const r of runs.values()) {
    r.output = file(`out-${r.id}`);
    r.log = file(`tl-${r.id}`) ?? file(`log-${r.id}`);
  }
  return { runs: [...runs.values()], forged };
}

/** What the observer concluded: `missing` when a binary the results name never ran under it. */
export interface NativeVerdict {
  missing: string[];
  seen: string[];
}

const ended = (s: number): string => (s > 128 && s < 160 ? `signal ${s - 128}` : `exit ${s}`);
const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const VERDICT = { passed: 'PASS', failed: 'FAIL', skipped: 'SKIP' } as Record<string, string>;

/** Shared by both runners: binaries not seen to end, lines no wrapper wrote. */
function common(rec: NativeRecord, timedOut: boolean, seen: string[]): void {
  const open = rec.runs.filter((r) => r.status === null);
  if (open.length && !timedOut) seen.push(`${open.length} test binary run(s) never seen to end (${open[0]?.binary})`);
  if (rec.forged) seen.push(`${rec.forged} line(s) in the observer's record that no wrapper wrote`);
}

/**
 * go test: `cases` are the parsed results (`pkg::Test/sub`), `pkgOf` maps a binary's folder to its import path.
 * Each package's verdicts must be lines its binary printed; a binary that exited 0 must have reached M.Run's end
 * (its testing log written) and printed no failure; one that failed must not have all its tests passed.
 */
export function reconcileGo(
  cases: readonly TestCase[],
  rec: NativeRecord,
  pkgOf: (dir: string) => string | null,
  timedOut: boolean,
): NativeVerdict {
  const seen: string[] = [];
  const missing: string[] = [];
  common(rec, timedOut, seen);
  const byPkg = new Map<string, BinaryRun[]>();
  for (const r of rec.runs) {
    const p = pkgOf(r.dir) ?? r.dir;
    byPkg.set(p, [...(byPkg.get(p) ?? []), r]);
    if (r.status === null) continue;
    const out = r.output ?? '';
    if (r.status === 0 && !(r.log ?? '').startsWith('# test log'))
      seen.push(`the test binary of ${p} exited 0 before package testing finished its run (an exit from inside it)`);
    if (r.status === 0 && /^\s*--- FAIL: |^FAIL$/m.test(out))
      seen.push(`the test binary of ${p} exited 0 after printing a failure`);
  }
  const pkgs = new Map<string, TestCase[]>();
  for (const c of cases) {
    const i = c.id.indexOf('::');
    if (i < 0) continue;
    const p = c.id.slice(0, i);
    pkgs.set(p, [...(pkgs.get(p) ?? []), c]);
  }
  for (const [p, cs] of pkgs) {
    const runs = byPkg.get(p) ?? [];
    if (!runs.length) {
      missing.push(`the test binary of ${p} never ran under it`);
      continue;
    }
    const out = runs.map((r) => r.output ?? '').join('\n');
    const unprinted = cs.filter((c) => {
      const word = VERDICT[c.status];
      const name = c.id.slice(p.length + 2);
      return word !== undefined && !new RegExp(`^\\s*--- ${word}: ${esc(name)} \\(`, 'm').test(out);
    });
    if (unprinted.length)
      seen.push(
        `${unprinted.length} verdict(s) of ${p} its test binary never printed (${unprinted[0]?.id}: ${unprinted[0]?.status})`,
      );
    const failedRun = runs.find((r) => r.status !== null && r.status !== 0);
    if (failedRun && cs.every((c) => c.status === 'passed' || c.status === 'skipped'))
      seen.push(`the test binary of ${p} ended with ${ended(failedRun.status as number)}, its tests say passed`);
  }
  return { missing, seen };
}

/** The name cargo's parser gives a binary (`target/debug/deps/calc-0123abcd…` → `calc`). */
const cargoName = (binary: string): string => (binary.split('/').pop() ?? '').replace(/-[0-9a-f]{8,}$/, '');
const LOGGED = { ok: 'passed', failed: 'failed', ignored: 'skipped' } as Record<string, string>;

/**
 * cargo test: every binary's verdicts (`name::test`, doc tests apart: rustdoc runs them itself) must be what libtest
 * logged to its own file in that binary, and its exit status must agree with them.
 */
export function reconcileCargo(cases: readonly TestCase[], rec: NativeRecord, timedOut: boolean): NativeVerdict {
  const seen: string[] = [];
  const missing: string[] = [];
  common(rec, timedOut, seen);
  const bins = new Map<string, TestCase[]>();
  for (const c of cases) {
    const i = c.id.indexOf('::');
    const b = i < 0 ? 'tests' : c.id.slice(0, i);
    if (b !== 'doc') bins.set(b, [...(bins.get(b) ?? []), c]);
  }
  for (const [b, cs] of bins) {
    // Older cargo names the binary's path in its header: compared without folder and hash on both sides.
    const runs = rec.runs.filter((r) => b === 'tests' || cargoName(r.binary) === cargoName(b));
    if (!runs.length) {
      missing.push(`the test binary ${b} never ran under it`);
      continue;
    }
    const logged = new Map<string, string>();
    for (const r of runs)
      for (const l of (r.log ?? '').split('\n')) {
        const m = /^(ok|failed|ignored) (.+)$/.exec(l);
        if (m) logged.set(m[2] as string, LOGGED[m[1] as string] as string);
      }
    const unlogged = cs.filter((c) => logged.get(c.id.slice(b.length + 2)) !== c.status);
    if (unlogged.length)
      seen.push(
        `${unlogged.length} verdict(s) of ${b} that libtest did not log (${unlogged[0]?.id}: ${unlogged[0]?.status}, logged ${logged.get(unlogged[0]?.id.slice(b.length + 2) ?? '') ?? 'nothing'})`,
      );
    for (const r of runs) {
      if (r.status === null) continue;
      const failures = [...logged.values()].some((s) => s === 'failed');
      if (r.status !== 0 && !failures)
        seen.push(`the test binary ${b} ended with ${ended(r.status)}, libtest logged no failure`);
      if (r.status === 0 && failures) seen.push(`the test binary ${b} exited 0 after libtest logged a failure`);
    }
  }
  return { missing, seen };
}
