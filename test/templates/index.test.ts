import { spawn } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compactIndex, indexFeedback, summarizeFeedback } from '../../lib/store/feedback-index.js';
import { scanFeedback } from '../../lib/store/feedback-index.js';
import { run } from '../../scripts/score-templates.js';
import { orderFeedback } from '../../lib/collector/record-order.js';
import type { FeedbackIndexRow, TemplateScores } from '../../lib/schema/types.generated.js';
import { captureIo } from './_io.js';
import { tempDir } from '../helpers/temp.js';
import { makeFeedback, tempState, writeRuns, type TempState } from './_fixtures.js';

const DIST = new URL('../../dist/lib/store/', import.meta.url).href;
/** What the children import: the built store modules (test/global-setup.ts checks dist/ is fresh). */
const IMPORTS = `import { readFileSync } from 'node:fs';
import { StateStore } from '${DIST}store.js';
import { compactIndex, indexFeedback } from '${DIST}feedback-index.js';
`;

/** A node process running `body` after IMPORTS, with `args`; resolves when it exits 0. */
const spawnBuilt = (body: string, ...args: string[]) =>
  new Promise<void>((resolve, reject) => {
    const p = spawn(process.execPath, ['--input-type=module', '-e', IMPORTS + body, ...args], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`child exited ${code}`))));
  });

/** The feedback records one child writes, in a file of their own. */
function batchFile(records: unknown[]): string {
  const file = join(tempDir('jl-batch-'), 'batch.json');
  writeFileSync(file, JSON.stringify(records));
  return file;
}

let st: TempState;
beforeEach(() => (st = tempState()));
afterEach(() => st.cleanup());

const indexFile = () => join(st.root, 'index', 'feedback.jsonl');
const compactedFile = () => join(st.root, 'index', 'feedback.compacted.jsonl');
const linesOf = (f: string) => (existsSync(f) ? readFileSync(f, 'utf8').split('\n').filter(Boolean) : []);
const indexLines = () => linesOf(indexFile());
const beadsOf = (lines: string[]) => lines.map((l) => (JSON.parse(l) as FeedbackIndexRow).bead);
async function score(args: string[] = []): Promise<{ code: number; data: TemplateScores; err: string }> {
  const io = captureIo({ JUDGELOOP_STATE_DIR: st.root, JUDGE_ENABLED: 'true', JUDGE_PHASE: '3' });
  const code = await run(['--json', ...args], io);
  return { code, data: JSON.parse(io.out()) as TemplateScores, err: io.err() };
}

describe('feedback index', () => {
  it('the collector call appends one summary row per write, keyed by bead, with the file identity', async () => {
    const fb = makeFeedback({
      bead: 'b1',
      template: 'A',
      outcome: 'partial_pass',
      iterations: 2,
      task_type: 'bugfix',
      judge: 0.6,
      issues: [
        { description: 'Scope creep in utils', category: 'Scope_Creep' },
        { description: 'Missing   test for 3 edge cases!' },
        { description: 'Missing test for 12 edge cases' },
      ],
    });
    st.store.write('feedback', 'b1', fb);
    const row = await indexFeedback(st.store, fb, '2026-02-01T00:00:00.000Z');
    expect(indexLines()).toEqual([JSON.stringify(row)]);
    expect(row).toMatchObject({
      bead: 'b1',
      template: 'A',
      task_type: 'bugfix',
      outcome: 'partial_pass',
      retries: 2,
      composite: 0.5,
    });
    // Same issue with other numbers folds to one key; categories are compared lower-cased.
    expect(row.judge!.issues.map((i) => i.key)).toEqual(['scope_creep', 'missing test for # edge cases']);
    expect(row.file.size).toBe(readFileSync(st.store.path('feedback', 'b1')).length);
  });

  it('files the index does not know are read, scored and indexed; the next run reads none', async () => {
    await writeRuns(
      st.store,
      [
        { bead: 'a', template: 'A', outcome: 'full_pass' },
        { bead: 'b', template: 'A', outcome: 'agent_failure' },
      ],
      false,
    );
    const first = await score();
    expect(first.data.sources).toMatchObject({ feedback_files: 2, from_index: 0, read_now: 2 });
    expect(first.data.templates[0]!.runs).toBe(2);
    const second = await score();
    expect(second.data.sources).toMatchObject({ feedback_files: 2, from_index: 2, read_now: 0 });
    expect(second.data.templates).toEqual(first.data.templates);
  });

  it('a rewritten feedback file (judged later) counts once, with its last row', async () => {
    await writeRuns(st.store, [{ bead: 'a', template: 'A', outcome: 'full_pass' }]);
    await writeRuns(st.store, [{ bead: 'a', template: 'A', outcome: 'full_pass', judge: 0.4 }]);
    expect(indexLines()).toHaveLength(2);
    const { data } = await score();
    expect(data.templates[0]).toMatchObject({ runs: 1, judge: { value: 0.4, n: 1 } });
  });

  it('a deleted feedback file no longer counts', async () => {
    await writeRuns(st.store, [
      { bead: 'a', template: 'A', outcome: 'full_pass' },
      { bead: 'b', template: 'A', outcome: 'full_pass' },
    ]);
    rmSync(st.store.path('feedback', 'b'));
    expect((await score()).data.templates[0]!.runs).toBe(1);
  });

  it('--verify re-reads a file rewritten without a new row; --rebuild compacts the index', async () => {
    await writeRuns(st.store, [
      { bead: 'a', template: 'A', outcome: 'full_pass' },
      { bead: 'b', template: 'A', outcome: 'full_pass' },
    ]);
    await writeRuns(st.store, [{ bead: 'a', template: 'A', outcome: 'full_pass' }]);
    st.store.write('feedback', 'b', makeFeedback({ bead: 'b', template: 'A', outcome: 'agent_failure' })); // not indexed
    utimesSync(st.store.path('feedback', 'b'), new Date(), new Date(Date.now() + 5000));
    expect((await score()).data.templates[0]!.outcomes.agent_failure).toBe(0); // trusts the index
    const verified = await score(['--verify']);
    expect(verified.data.templates[0]!.outcomes.agent_failure).toBe(1);
    expect(verified.data.sources).toMatchObject({ from_index: 1, read_now: 1 });
    expect(indexLines()).toHaveLength(4);
    const rebuilt = await score(['--rebuild']);
    expect(rebuilt.data.sources).toMatchObject({ from_index: 0, read_now: 2 });
    expect(beadsOf(linesOf(compactedFile())).sort()).toEqual(['a', 'b']);
    expect(indexLines()).toEqual([]);
    expect(rebuilt.data.templates).toEqual(verified.data.templates);
  });

  it('a half-written index line is reported and its file re-read', async () => {
    await writeRuns(st.store, [{ bead: 'a', template: 'A', outcome: 'full_pass' }]);
    st.store.write('feedback', 'b', makeFeedback({ bead: 'b', template: 'A', outcome: 'timeout' }));
    appendFileSync(indexFile(), '{"bead":"b","template":"A","task_ty');
    const r = await score();
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/1 unreadable line in .*feedback\.jsonl; their feedback files were re-read/);
    expect(r.data.templates[0]!.outcomes).toMatchObject({ full_pass: 1, timeout: 1 });
  });
});

describe('compacted index + bounded tail', () => {
  const tailMaxBytes = 1500;
  const write = async (bead: string, judge: number | null, index = true) => {
    const fb = makeFeedback({ bead, template: 'A', outcome: 'full_pass', judge });
    st.store.write('feedback', bead, fb);
    if (index) await indexFeedback(st.store, fb, '2026-02-01T00:00:00.000Z', tailMaxBytes);
  };
  const scan = async (opts: { verify?: boolean; rebuild?: boolean } = {}) => {
    const rows: FeedbackIndexRow[] = [];
    const res = await scanFeedback(st.store, (r) => rows.push(r), { ...opts, tailMaxBytes });
    return { res, rows: rows.sort((a, b) => (a.bead < b.bead ? -1 : 1)) };
  };
  const isUnique = (xs: string[]) => new Set(xs).size === xs.length;
  const sorted = (xs: string[]) => [...xs].sort();

  it('writers compact the tail past its bound; the last row per bead wins across the compacted file and the tail', async () => {
    for (let i = 0; i < 12; i++) await write(`b${String(i).padStart(2, '0')}`, null);
    for (const i of [3, 7, 11]) await write(`b${String(i).padStart(2, '0')}`, i / 20); // rewritten (judged later)
    const compacted = beadsOf(linesOf(compactedFile()));
    expect(compacted.length).toBeGreaterThan(0);
    expect(isUnique(compacted)).toBe(true);
    expect(readFileSync(indexFile()).length).toBeLessThanOrEqual(1500 + 800);
    const { res, rows } = await scan();
    expect(res).toMatchObject({ feedbackFiles: 12, fromIndex: 12, readNow: 0, reconciled: false, badIndexLines: 0 });
    expect(rows.map((r) => r.bead)).toEqual(Array.from({ length: 12 }, (_, i) => `b${String(i).padStart(2, '0')}`));
    expect(rows.filter((r) => r.judge).map((r) => [r.bead, r.judge!.score])).toEqual([
      ['b03', 0.15],
      ['b07', 0.35],
      ['b11', 0.55],
    ]);
    // A compaction changes nothing that is scored.
    await compactIndex(st.store);
    expect(indexLines()).toEqual([]);
    expect((await scan()).rows).toEqual(rows);
  });

  it('deleted files are dropped and unindexed files read, the index rewritten joined with the folder', async () => {
    for (let i = 0; i < 8; i++) await write(`k${i}`, 0.5);
    rmSync(st.store.path('feedback', 'k2'));
    rmSync(st.store.path('feedback', 'k5'));
    for (let i = 0; i < 7; i++) await write(`u${i}`, null, false); // never indexed
    const first = await scan();
    expect(first.res).toMatchObject({ feedbackFiles: 13, readNow: 7, fromIndex: 6, reconciled: true, skipped: [] });
    expect(first.rows.map((r) => r.bead)).toEqual([
      'k0',
      'k1',
      'k3',
      'k4',
      'k6',
      'k7',
      'u0',
      'u1',
      'u2',
      'u3',
      'u4',
      'u5',
      'u6',
    ]);
    expect(sorted(beadsOf(linesOf(compactedFile())))).toEqual(first.rows.map((r) => r.bead));
    const second = await scan();
    expect(second.res).toMatchObject({ feedbackFiles: 13, readNow: 0, fromIndex: 13, reconciled: false });
    expect(second.rows).toEqual(first.rows);
    expect(readdirSync(join(st.root, 'index')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('a first read (no index) and --rebuild hand on the rows they index: the same rows the next read takes from the index', async () => {
    for (let i = 0; i < 7; i++) await write(`f${i}`, i % 2 ? i / 10 : null, false);
    writeFileSync(join(st.root, 'feedback', 'f9.json'), '{"schema_version": "1.0.0", "bead": ');
    expect(existsSync(join(st.root, 'index'))).toBe(false);
    const first = await scan();
    expect(first.res).toMatchObject({ feedbackFiles: 8, readNow: 7, fromIndex: 0, reconciled: true, badIndexLines: 0 });
    expect(first.res.skipped.map((s) => [s.file.split('/').pop(), s.problem])).toEqual([
      ['f9.json', expect.stringMatching(/^not valid JSON/)],
    ]);
    expect(first.rows.map((r) => r.bead)).toEqual(['f0', 'f1', 'f2', 'f3', 'f4', 'f5', 'f6']);
    expect(sorted(beadsOf(linesOf(compactedFile())))).toEqual(first.rows.map((r) => r.bead));
    const second = await scan(); // the corrupt file, never indexed, is reconciled (and named) again
    expect(second.res).toMatchObject({ feedbackFiles: 8, readNow: 0, fromIndex: 7, reconciled: true });
    expect(second.res.skipped).toHaveLength(1);
    expect(second.rows).toEqual(first.rows);
    rmSync(join(st.root, 'feedback', 'f9.json'));
    const third = await scan();
    expect(third.res).toMatchObject({ feedbackFiles: 7, readNow: 0, fromIndex: 7, reconciled: false });
    const rebuilt = await scan({ rebuild: true });
    expect(rebuilt.res).toMatchObject({ feedbackFiles: 7, readNow: 7, fromIndex: 0, reconciled: true, skipped: [] });
    expect(rebuilt.rows.map(({ indexed_at: _, ...r }) => r)).toEqual(first.rows.map(({ indexed_at: _, ...r }) => r));
    expect(readdirSync(join(st.root, 'index')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it("a first read's new rows (appended unsynced) lost or torn in a crash are read again: the same rows", async () => {
    for (let i = 0; i < 6; i++) await write(`c${i}`, i / 10, false);
    const first = await scan();
    expect(first.res).toMatchObject({ readNow: 6, fromIndex: 0 });
    // What a crash before writeback can leave: the compacted file's last rows gone, the one before them cut mid-row.
    const text = readFileSync(compactedFile(), 'utf8');
    const kept = text.split('\n').slice(0, 3).join('\n');
    writeFileSync(compactedFile(), `${kept}\n${text.split('\n')[3]!.slice(0, 40)}`);
    const after = await scan();
    expect(after.res).toMatchObject({ feedbackFiles: 6, fromIndex: 3, readNow: 3, badIndexLines: 1 });
    expect(after.rows.map(({ indexed_at: _, ...r }) => r)).toEqual(first.rows.map(({ indexed_at: _, ...r }) => r));
    expect((await scan()).res).toMatchObject({ fromIndex: 6, readNow: 0, badIndexLines: 0 });
  });

  it('a tail far over its bound (rows appended without compaction) is compacted by the scan, last row winning', async () => {
    let rows = '';
    for (let round = 0; round < 3; round++)
      for (let i = 0; i < 10; i++) {
        const fb = makeFeedback({ bead: `t${i}`, template: 'A', outcome: 'full_pass', judge: round / 10 });
        if (round === 2) st.store.write('feedback', fb.bead, fb);
        rows += JSON.stringify(summarizeFeedback(fb, { size: 1, mtime_ms: 1 }, '2026-02-01T00:00:00Z')) + '\n';
      }
    mkdirSync(join(st.root, 'index'), { recursive: true });
    appendFileSync(indexFile(), rows);
    const { res, rows: got } = await scan();
    expect(res).toMatchObject({ feedbackFiles: 10, fromIndex: 10, reconciled: false });
    expect(got.map((r) => r.judge!.score)).toEqual(Array(10).fill(0.2));
    expect(indexLines()).toEqual([]);
    expect(sorted(beadsOf(linesOf(compactedFile())))).toEqual(got.map((r) => r.bead));
  });

  it('writers appending while compactions run lose nothing (separate processes)', async () => {
    const writers = 3;
    const per = 25;
    // The children run the built modules (dist/, as bin/ does: node alone, no tsx transform); what each writes is
    // made here.
    const batches = Array.from({ length: writers }, (_, w) =>
      Array.from({ length: per }, (_, i) =>
        // every third file is rewritten with a judgment
        (i % 3 === 0 ? [null, 0.9] : [null]).map((judge) =>
          makeFeedback({ bead: `w${w}-${i}`, template: `T${w}`, outcome: 'full_pass', judge }),
        ),
      ).flat(),
    );
    const writer = `
      const store = new StateStore(process.argv[1]);
      for (const fb of JSON.parse(readFileSync(process.argv[2], 'utf8'))) {
        store.write('feedback', fb.bead, fb);
        await indexFeedback(store, fb, undefined, 3000);
      }`;
    const compactor = `
      const store = new StateStore(process.argv[1]);
      for (let i = 0; i < 40; i++) { await compactIndex(store); await new Promise((r) => setTimeout(r, 5)); }`;
    await Promise.all([
      ...batches.map((batch) => spawnBuilt(writer, st.root, batchFile(batch))),
      spawnBuilt(compactor, st.root),
    ]);
    const all = [...linesOf(compactedFile()), ...indexLines()];
    expect(isUnique(beadsOf(linesOf(compactedFile())))).toBe(true);
    const { res, rows } = await scan();
    expect(res).toMatchObject({
      feedbackFiles: writers * per,
      fromIndex: writers * per,
      readNow: 0,
      reconciled: false,
      badIndexLines: 0,
    });
    expect(rows).toHaveLength(writers * per);
    // Every rewritten file's row is its last one (judged), and no other row has a judgment.
    expect(
      rows
        .filter((r) => r.judge !== null)
        .map((r) => r.bead)
        .sort(),
    ).toEqual(
      Array.from({ length: writers }, (_, w) =>
        Array.from({ length: per }, (_, i) => i)
          .filter((i) => i % 3 === 0)
          .map((i) => `w${w}-${i}`),
      )
        .flat()
        .sort(),
    );
    expect(all.length).toBeGreaterThanOrEqual(writers * per);
  });
});

describe('corrupt feedback', () => {
  it('a record in our layout edited to a verdict the schema refuses is skipped, not counted from its head', async () => {
    await writeRuns(st.store, [{ bead: 'good', template: 'A', outcome: 'full_pass' }]);
    // Written as the collector writes it (summary first), so the head alone would make its row.
    const fb = orderFeedback(makeFeedback({ bead: 'edited', template: 'A', outcome: 'full_pass', judge: 0.9 }));
    st.store.write('feedback', 'edited', fb);
    const file = join(st.root, 'feedback', 'edited.json');
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/"verdict": "pass"/);
    writeFileSync(file, text.replace('"verdict": "pass"', '"verdict": "great"'));
    const r = await score();
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/skipped \S*\/feedback\/edited\.json: \/judgment\/verdict: must be one of/);
    expect(r.data.templates[0]).toMatchObject({ template: 'A', runs: 1 });
  });

  it('is named on stderr with its JSON path and skipped; the others are scored; exit 1; nothing stored is lost', async () => {
    await writeRuns(st.store, [
      { bead: 'good1', template: 'A', outcome: 'full_pass' },
      { bead: 'good2', template: 'A', outcome: 'agent_failure' },
    ]);
    writeFileSync(join(st.root, 'feedback', 'broken.json'), '{"schema_version": "1.0.0", "bead": ');
    const invalid = makeFeedback({ bead: 'invalid', template: 'A', outcome: 'full_pass' }) as unknown as Record<
      string,
      unknown
    >;
    invalid.outcome = 'great_success';
    writeFileSync(join(st.root, 'feedback', 'invalid.json'), JSON.stringify(invalid));
    // A stray copy (a file manager's name): not a bead id, so named and skipped, not the whole read refused.
    const copy = readFileSync(join(st.root, 'feedback', 'good1.json'));
    writeFileSync(join(st.root, 'feedback', 'good1 (copy).json'), copy);
    const before = readFileSync(join(st.root, 'feedback', 'broken.json'), 'utf8');
    const r = await score();
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/skipped \S*\/feedback\/good1 \(copy\)\.json: its name is not a bead id/);
    expect(st.store.list('feedback')).not.toContain('good1 (copy)');
    expect(r.err).toMatch(/skipped \S*\/feedback\/broken\.json: not valid JSON/);
    expect(r.err).toMatch(/skipped \S*\/feedback\/invalid\.json: \/outcome: must be one of "full_pass"/);
    expect(r.data.templates[0]).toMatchObject({ template: 'A', runs: 2 });
    expect(r.data.sources.skipped.map((s) => s.file.split('/').pop()).sort()).toEqual([
      'broken.json',
      'good1 (copy).json',
      'invalid.json',
    ]);
    expect(readFileSync(join(st.root, 'feedback', 'broken.json'), 'utf8')).toBe(before);
    // Still reported on the next run (a corrupt file is never indexed).
    expect((await score()).code).toBe(1);
    // A file whose bead disagrees with its name is skipped too.
    writeFileSync(
      join(st.root, 'feedback', 'other.json'),
      JSON.stringify(makeFeedback({ bead: 'good1', template: 'A', outcome: 'full_pass' })),
    );
    expect((await score()).err).toMatch(/other\.json: \/bead: is "good1", expected "other"/);
  });
});

describe('concurrent writers', () => {
  it('rows appended by several processes at once all arrive whole', async () => {
    const n = 4;
    const per = 15;
    const batch = (w: number) =>
      Array.from({ length: per }, (_, i) =>
        makeFeedback({
          bead: `w${w}-${i}`,
          template: `T${w}`,
          outcome: 'full_pass',
          judge: 0.5,
          issues: [{ description: 'x'.repeat(150) }],
        }),
      );
    const script = `
      const store = new StateStore(process.argv[1]);
      for (const fb of JSON.parse(readFileSync(process.argv[2], 'utf8'))) {
        store.write('feedback', fb.bead, fb);
        await indexFeedback(store, fb);
      }`;
    await Promise.all(Array.from({ length: n }, (_, w) => spawnBuilt(script, st.root, batchFile(batch(w)))));
    const rows: FeedbackIndexRow[] = [];
    const res = await scanFeedback(st.store, (r) => rows.push(r));
    expect(res).toMatchObject({ feedbackFiles: n * per, fromIndex: n * per, readNow: 0, badIndexLines: 0 });
    expect(indexLines()).toHaveLength(n * per);
    expect(new Set(rows.map((r) => r.bead)).size).toBe(n * per);
  });
});

describe('summarizeFeedback', () => {
  it('keeps missing signals missing', () => {
    const row = summarizeFeedback(
      makeFeedback({ bead: 'x', template: 'A', outcome: 'infra_failure' }),
      { size: 1, mtime_ms: 2 },
      '2026-01-01T00:00:00Z',
    );
    expect(row).toMatchObject({ task_type: null, retries: null, composite: null, judge: null });
  });
});
