// task.hidden_tests: tests the agent never saw, from a folder outside every worktree or a git revision, copied into
// fresh checkouts of the graded base and the graded commit and run there apart (docs/design/collector.md, "Hidden tests").
import { lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { UserError } from '../base/errors.js';
import { git } from '../git/git.js';
import { workingTreeHolding } from '../git/hidden-path.js';
import { lsTree, blob } from '../git/seal.js';
import { pathMatcher } from '../git/test-paths.js';
import { testEvidence } from '../evidence/trust.js';
import type { Check, CommandsUsed, Config, Feedback } from '../schema/types.generated.js';
import { hiddenLine, hiddenPart, hiddenStanding } from '../evidence/hidden.js';
import { runChecks } from './checks.js';
import { depCacheOf, goCacheOf, runSetup, trustedChanges, trustedStamps, withCheckout } from './checkout.js';
import type { MeasureOptions } from './measure.js';

export interface HiddenTests {
  /** task.hidden_tests as given. */
  spec: string;
  kind: 'path' | 'ref';
  /** The revision's commit (a ref), or null (a folder). */
  commit: string | null;
  /** Each file's path in the checkout and its bytes. */
  files: { path: string; data: Buffer }[];
}

const SKIP = new Set(['.git', 'node_modules', '__pycache__', '.pytest_cache']);

function walk(root: string, dir: string, out: HiddenTests['files']): void {
  for (const name of readdirSync(dir).sort()) {
    if (SKIP.has(name)) continue;
    const p = join(dir, name);
    const st = lstatSync(p);
    if (st.isDirectory()) walk(root, p, out);
    else if (st.isFile()) out.push({ path: relative(root, p).split(sep).join('/'), data: readFileSync(p) });
  }
}

const inside = (p: string, dir: string) => p === dir || p.startsWith(dir.endsWith(sep) ? dir : dir + sep);

/**
 * The hidden tests of a run: an absolute path (a folder laid out like the repository, or one file put at its root)
 * that no working tree of the repository holds, else a revision of the repository (its test files that differ from
 * `base`). A path inside a working tree, or a revision that names no commit, is refused: `where` names the record.
 */
export async function loadHiddenTests(
  repo: string,
  spec: string,
  base: string,
  collector: Config['collector'],
  where: string,
): Promise<HiddenTests> {
  if (isAbsolute(spec)) {
    const st = lstatSync(spec, { throwIfNoEntry: false });
    if (!st) throw new UserError(`${where}: /task/hidden_tests: ${spec} does not exist`);
    const real = realpathSync(spec);
    const tree = await workingTreeHolding(repo, real);
    if (tree)
      throw new UserError(
        `${where}: /task/hidden_tests: ${spec} is inside the repository's working tree ${tree}: the agent could read it, so it would not be hidden; keep hidden tests outside every worktree (or in a ref)`,
      );
    const files: HiddenTests['files'] = [];
    if (st.isDirectory()) walk(real, real, files);
    else files.push({ path: spec.slice(spec.lastIndexOf('/') + 1), data: readFileSync(real) });
    if (!files.length) throw new UserError(`${where}: /task/hidden_tests: ${spec} holds no file`);
    return { spec, kind: 'path', commit: null, files };
  }
  let commit: string;
  try {
    commit = (await git(repo, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${spec}^{commit}`])).trim();
  } catch {
    commit = '';
  }
  if (!commit)
    throw new UserError(
      `${where}: /task/hidden_tests: ${JSON.stringify(spec)} is neither an absolute path nor a commit or ref in ${repo}`,
    );
  const isTest = collector.test_paths?.length ? pathMatcher(collector.test_paths) : () => true;
  const [tree, baseTree] = await Promise.all([lsTree(repo, commit), lsTree(repo, base)]);
  const files: HiddenTests['files'] = [];
  for (const [p, e] of tree)
    if (e.type === 'blob' && isTest(p) && baseTree.get(p)?.oid !== e.oid)
      files.push({ path: p, data: Buffer.from(await blob(repo, e.oid)) });
  if (!files.length)
    throw new UserError(
      `${where}: /task/hidden_tests: ${spec} (${commit.slice(0, 12)}) has no test file that the base lacks`,
    );
  return { spec, kind: 'ref', commit, files };
}

/** Writes the hidden files into a checkout, over whatever is at their paths. */
export function placeHidden(dir: string, hidden: HiddenTests): void {
  for (const f of hidden.files) {
    const to = resolve(dir, f.path);
    if (!inside(to, dir)) throw new UserError(`hidden test path ${f.path} leaves the checkout`);
    mkdirSync(dirname(to), { recursive: true });
    writeFileSync(to, f.data);
  }
}

/** The checkout's changes less the hidden files placed there, plus any hidden file the run rewrote. */
async function hiddenAware(
  dir: string,
  hidden: HiddenTests,
  changes: Promise<{ tests: string[]; code: string[] }>,
): Promise<{ tests: string[]; code: string[] }> {
  const placed = new Set(hidden.files.map((f) => f.path));
  const mine = (x: string) => placed.has(x.slice(0, x.lastIndexOf(' (')));
  const c = await changes;
  const tests = c.tests.filter((x) => !mine(x));
  for (const f of hidden.files) {
    const now = lstatSync(join(dir, f.path), { throwIfNoEntry: false });
    if (!now?.isFile() || !readFileSync(join(dir, f.path)).equals(f.data)) tests.push(`${f.path} (written)`);
  }
  return { tests, code: c.code.filter((x) => !mine(x)) };
}

/**
 * The test command in a fresh checkout of `commit` (its setup first) with the hidden tests copied in after the
 * trusted ones: a run of its own, so the graded run's output (what the judge reads) never holds them.
 */
export async function runHidden(
  commit: string,
  o: MeasureOptions,
  hidden: HiddenTests,
  label: string,
): Promise<{ check: Check | null; trusted: boolean | null }> {
  const test = o.commands.test;
  if (test === null) return { check: null, trusted: null };
  const commands: CommandsUsed = { build: o.commands.build, test, lint: null, typecheck: null };
  return withCheckout(
    o.wt,
    commit,
    async (dir) => {
      const stamps = await trustedStamps(dir, { repo: o.wt, commit });
      const setup = await runSetup(dir, {
        collector: o.cfg.collector,
        env: o.ctx.processEnv,
        sandbox: o.sandbox,
        log: o.ctx.log,
        label,
        depCache: depCacheOf(o.ctx.store, o.cfg.collector),
      });
      if (setup && setup.result.status !== 'passed') return { check: null, trusted: null };
      placeHidden(dir, hidden);
      o.ctx.log?.(`${label}: ${hidden.files.length} hidden test file(s) from ${hidden.kind}`);
      const checks = await runChecks({
        cwd: dir,
        commands,
        collector: o.cfg.collector,
        env: o.ctx.processEnv,
        sandbox: o.sandbox,
        shortCircuit: true,
        goCache: goCacheOf(o.ctx.store, false),
        log: o.ctx.log,
        trustedChanges: () => hiddenAware(dir, hidden, trustedChanges(dir, o.cfg.collector, stamps)),
      });
      return { check: checks.test, trusted: testEvidence(checks.test).trusted };
    },
    'sealed',
  );
}

/** The hidden run on the graded base, then on the graded commit, as the feedback's `hidden` block. */
export async function measureHidden(
  gradedBase: string,
  graded: string,
  o: MeasureOptions,
  hidden: HiddenTests,
  bead: string,
): Promise<NonNullable<Feedback['hidden']>> {
  const base = await runHidden(gradedBase, o, hidden, `${bead} hidden tests on the base`);
  const now = await runHidden(graded, o, hidden, `${bead} hidden tests`);
  const paths = hidden.files.map((f) => f.path);
  const st = hiddenStanding(hiddenPart(base.check?.tests, paths), hiddenPart(now.check?.tests, paths));
  const source = { spec: hidden.spec, kind: hidden.kind, ...(hidden.commit ? { commit: hidden.commit } : {}) };
  let note: string | undefined;
  if (!now.check?.tests?.cases || !base.check?.tests?.cases)
    note =
      'the hidden run gave no per-test results on both sides (setup failed, no test command, or a runner without them)';
  else if (now.trusted === false) note = "the hidden run's evidence is not trusted (test_evidence of that run)";
  const resolved = now.trusted === false ? false : st.resolved;
  return { source, files: hidden.files.length, ...st, resolved, ...(note ? { note } : {}), line: hiddenLine(st) };
}
