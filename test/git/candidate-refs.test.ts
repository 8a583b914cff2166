// Candidate refs (refs/judgeloop/candidates/<bead>) in real repositories: sealed by collect, pruned past
// collector.candidate_ref_max_age_days by a later collect, by `judgeloop refs prune` (age, race, all), and for
// a race after accept (pruneRunCandidates).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run as collect } from '../../scripts/collect.js';
import { run as refs } from '../../scripts/refs.js';
import { type CandidateRef, pruneRunCandidates, refsToPrune } from '../../lib/git/candidate-refs.js';
import { run as race } from '../../scripts/race.js';
import { addSolution, makeRaceProject, SOLUTIONS } from '../race/_fixture.js';
import { gitIn } from '../helpers/repo.js';
import { agentWorktree, makeIo, makeProject, runRecord, writeRecord, type Project } from '../collector/_project.js';

// No build, test or lint: refs are about sealing and pruning, and each runner costs a process per collect.
const COMMANDS = { build: null, test: null, lint: null, typecheck: null };

const refNames = (repo: string): string[] =>
  gitIn(repo, 'for-each-ref', '--format=%(refname:lstrip=3)', 'refs/judgeloop/candidates/').split('\n').filter(Boolean);

/** A run of worktree wt-<name> (bead bd-<name>) that completed on `day`, collected at `now`. */
async function collectRun(p: Project, name: string, day: string, now: string, config?: string) {
  const rec = writeRecord(
    p,
    name,
    runRecord({
      bead: `bd-${name}`,
      worktree: `wt-${name}`,
      commands: COMMANDS,
      started_at: `${day}T00:00:00Z`,
      completed_at: `${day}T00:01:00Z`,
    }),
  );
  const { io, err } = makeIo(p, { JUDGELOOP_NOW: now });
  const code = await collect([...(config ? ['--config', config] : []), rec], io);
  expect(code, err.join('')).toBe(0);
  return err.join('');
}

async function refsCmd(p: Project, args: string[], now = '2026-03-01T00:00:00Z') {
  const { io, out, err } = makeIo(p, { JUDGELOOP_NOW: now });
  // A UserError is exit 2 (main() prints it); here it is caught as main() would.
  const code = await refs(args, io).catch((e: Error) => {
    if (e.name !== 'UserError') throw e;
    err.push(e.message);
    return 2;
  });
  return { code, out: out.join(''), err: err.join('') };
}

describe('candidate refs', () => {
  it('a collect keeps its own ref and removes other runs older than collector.candidate_ref_max_age_days', async () => {
    const p = makeProject();
    for (const n of ['old', 'mid', 'new'])
      agentWorktree(p, n, { commit: { [`src/${n}.mjs`]: `export const ${n} = 1;\n` } });
    await collectRun(p, 'old', '2026-01-20', '2026-01-20T12:00:00Z');
    // Feb 11 with the default 30 days: bd-old (Jan 20) is younger than that.
    await collectRun(p, 'mid', '2026-02-10', '2026-02-11T00:00:00Z');
    expect(refNames(p.repo)).toEqual(['bd-mid', 'bd-old']);
    // Mar 5: bd-old (Jan 20) goes, bd-mid (Feb 10) stays, bd-new is sealed.
    const log = await collectRun(p, 'new', '2026-03-04', '2026-03-05T00:00:00Z');
    expect(refNames(p.repo)).toEqual(['bd-mid', 'bd-new']);
    expect(log).toContain('pruned 1 candidate ref older than 30 days: bd-old');
    // Re-collecting old work (a race from January) prunes nothing: its peers are as old.
    agentWorktree(p, 'jan', { commit: { 'src/jan.mjs': 'export const jan = 1;\n' } });
    await collectRun(p, 'jan', '2026-01-01', '2026-03-05T00:00:00Z');
    expect(refNames(p.repo)).toEqual(['bd-jan', 'bd-mid', 'bd-new']);
    // null: never by age.
    const cfg = join(p.dir, 'keep.json');
    writeFileSync(cfg, JSON.stringify({ collector: { candidate_ref_max_age_days: null } }));
    agentWorktree(p, 'late', { commit: { 'src/late.mjs': 'export const late = 1;\n' } });
    await collectRun(p, 'late', '2026-12-01', '2026-12-02T00:00:00Z', cfg);
    expect(refNames(p.repo)).toEqual(['bd-jan', 'bd-late', 'bd-mid', 'bd-new']);
  });

  it('judgeloop refs list / prune --older-than / --dry-run / --all, from a worktree of the repository', async () => {
    const p = makeProject();
    // Collected with no age rule; `refs prune` with no rule reads the default (30 days).
    const keep = join(p.dir, 'keep.json');
    writeFileSync(keep, JSON.stringify({ collector: { candidate_ref_max_age_days: null } }));
    for (const [n, day] of [
      ['a', '2026-01-01'],
      ['b', '2026-02-20'],
    ] as const) {
      agentWorktree(p, n, { commit: { [`src/${n}.mjs`]: `export const ${n} = 1;\n` } });
      await collectRun(p, n, day, `${day}T12:00:00Z`, keep);
    }
    const wt = join(p.dir, 'wt-b');
    const listed = await refsCmd(p, ['list', '--json', '--repo', wt]);
    expect(listed.code).toBe(0);
    const rows = JSON.parse(listed.out).refs as { bead: string; completed_at: string; commit: string }[];
    expect(rows.map((r) => [r.bead, r.completed_at])).toEqual([
      ['bd-a', '2026-01-01T00:01:00.000Z'],
      ['bd-b', '2026-02-20T00:01:00.000Z'],
    ]);
    expect(rows[0]!.commit).toBe(gitIn(p.repo, 'rev-parse', 'refs/judgeloop/candidates/bd-a'));

    const dry = await refsCmd(p, ['prune', '--older-than', '14', '--dry-run', '--repo', wt]);
    expect(dry.out).toMatch(/^bd-a\t[0-9a-f]{12}\t2026-01-01T00:01:00\.000Z\n$/);
    expect(dry.err).toContain('would prune 1 candidate ref');
    expect(refNames(p.repo)).toEqual(['bd-a', 'bd-b']);

    const pruned = await refsCmd(p, ['prune', '--older-than', '14', '--repo', wt]);
    expect(pruned.code).toBe(0);
    expect(refNames(p.repo)).toEqual(['bd-b']);
    // No rule: the configured age (30 days by default): bd-b (Feb 20) is younger on Mar 1.
    expect((await refsCmd(p, ['prune', '--repo', p.repo])).err).toContain('pruned 0 candidate refs');
    expect(refNames(p.repo)).toEqual(['bd-b']);
    await refsCmd(p, ['prune', '--all', '--repo', p.repo]);
    expect(refNames(p.repo)).toEqual([]);

    expect((await refsCmd(p, ['prune', '--all', '--older-than', '3', '--repo', p.repo])).code).toBe(2);
    expect((await refsCmd(p, ['prune', '--repo', p.dir])).code).toBe(2);
  });

  it("a race: prune --race removes its solutions' refs in their repository (what accept does after a merge), no other", async () => {
    const p = makeRaceProject();
    const records = ['clean', 'nobuild'].map((n) => addSolution(p, n, SOLUTIONS[n]!, { commands: COMMANDS }));
    const lone = addSolution(p, 'lone', SOLUTIONS.clean!, { race_id: undefined, bead: 'bd-lone', commands: COMMANDS });
    const { io, err } = makeIo(p as unknown as Project);
    expect(await race(['--quiet', '--json', ...records], io), err.join('')).toBe(0);
    expect(await collect(['--quiet', lone], makeIo(p as unknown as Project).io)).toBe(0);
    expect(refNames(p.repo)).toEqual(['bd-clean', 'bd-lone', 'bd-nobuild']);

    const dry = await refsCmd(p as unknown as Project, ['prune', '--race', 'race-clamp', '--dry-run', '--json']);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.out)).toMatchObject({ race: 'race-clamp', dry_run: true });
    expect((JSON.parse(dry.out).pruned as { bead: string }[]).map((r) => r.bead)).toEqual(['bd-clean', 'bd-nobuild']);
    expect(refNames(p.repo)).toEqual(['bd-clean', 'bd-lone', 'bd-nobuild']);

    const done = await refsCmd(p as unknown as Project, ['prune', '--race', 'race-clamp']);
    expect(done.err).toContain('pruned 2 candidate refs of race race-clamp');
    expect(refNames(p.repo)).toEqual(['bd-lone']);
    // The function accept calls: nothing left to remove, a repository that is gone named.
    const again = await pruneRunCandidates([
      { repo: join(p.dir, 'wt-clean'), bead: 'bd-clean' },
      { repo: join(p.dir, 'wt-gone'), bead: 'bd-gone' },
    ]);
    expect(again).toEqual({ pruned: [], missing: [join(p.dir, 'wt-gone')] });
    expect((await refsCmd(p as unknown as Project, ['prune', '--race', 'no-such-race'])).code).toBe(2);
  });

  it('refsToPrune: named beads, an age cutoff or all, never a kept bead', () => {
    const ref = (bead: string, day: number): CandidateRef => ({
      bead,
      ref: `refs/judgeloop/candidates/${bead}`,
      commit: bead.padEnd(40, '0'),
      sealedAt: day * 86_400_000,
    });
    const refs = [ref('a', 1), ref('b', 5), ref('c', 9)];
    const beads = (rs: CandidateRef[]) => rs.map((r) => r.bead);
    expect(beads(refsToPrune(refs, { before: 6 * 86_400_000 }))).toEqual(['a', 'b']);
    expect(beads(refsToPrune(refs, { before: 6 * 86_400_000, keep: ['a'] }))).toEqual(['b']);
    expect(beads(refsToPrune(refs, { beads: ['c', 'zz'] }))).toEqual(['c']);
    expect(beads(refsToPrune(refs, { all: true, keep: ['b'] }))).toEqual(['a', 'c']);
    expect(beads(refsToPrune(refs, {}))).toEqual([]);
  });
});
