import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { indexFeedback, scanFeedback, summarizeFeedback } from '../../scripts/lib/feedback-index.js';
import { run } from '../../scripts/score-templates.js';
import type { FeedbackIndexRow, TemplateScores } from '../../scripts/lib/types.generated.js';
import { captureIo } from './_io.js';
import { makeFeedback, tempState, writeRuns, type TempState } from './_fixtures.js';

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
    const fb = makeFeedback({ bead: 'b1', template: 'A', outcome: 'partial_pass', iterations: 2, task_type: 'bugfix', judge: 0.6, issues: [
      { description: 'Scope creep in utils', category: 'Scope_Creep' },
      { description: 'Missing   test for 3 edge cases!' },
      { description: 'Missing test for 12 edge cases' },
    ] });
    st.store.write('feedback', 'b1', fb);
    const row = await indexFeedback(st.store, fb, '2026-02-01T00:00:00.000Z');
    expect(indexLines()).toEqual([JSON.stringify(row)]);
    expect(row).toMatchObject({ bead: 'b1', template: 'A', task_type: 'bugfix', outcome: 'partial_pass', retries: 2, composite: 0.5 });
    // Same issue with other numbers folds to one key; categories are compared lower-cased.
    expect(row.judge!.issues.map((i) => i.key)).toEqual(['scope_creep', 'missing test for # edge cases']);
    expect(row.file.size).toBe(readFileSync(st.store.path('feedback', 'b1')).length);
  });

  it('files the index does not know are read, scored and indexed; the next run reads none', async () => {
    await writeRuns(st.store, [{ bead: 'a', template: 'A', outcome: 'full_pass' }, { bead: 'b', template: 'A', outcome: 'agent_failure' }], false);
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
    await writeRuns(st.store, [{ bead: 'a', template: 'A', outcome: 'full_pass' }, { bead: 'b', template: 'A', outcome: 'full_pass' }]);
    rmSync(st.store.path('feedback', 'b'));
    expect((await score()).data.templates[0]!.runs).toBe(1);
  });

  it('--verify re-reads a file rewritten without a new row; --rebuild compacts the index', async () => {
    await writeRuns(st.store, [{ bead: 'a', template: 'A', outcome: 'full_pass' }, { bead: 'b', template: 'A', outcome: 'full_pass' }]);
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
    expect(beadsOf(linesOf(compactedFile()))).toEqual(['a', 'b']);
    expect(indexLines()).toEqual([]);
    expect(rebuilt.data.templates).toEqual(verified.data.templates);
  });

  it('a half-written index line is reported and its file re-read', async () => {
    await writeRuns(st.store, [{ bead: 'a', template: 'A', outcome: 'full_pass' }]);
    st.store.write('feedback', 'b', makeFeedback({ bead: 'b', template: 'A', outcome: 'timeout' }));
    appendFileSync(indexFile(), '{"bead":"b","template":"A","task_ty');
    const r = await score();
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/1 unreadable line\(s\) in .*feedback\.jsonl; their feedback files were re-read/);
    expect(r.data.templates[0]!.outcomes).toMatchObject({ full_pass: 1, timeout: 1 });
  });
});

describe('corrupt feedback', () => {
  it('is named on stderr with its JSON path and skipped; the others are scored; exit 1; nothing stored is lost', async () => {
    await writeRuns(st.store, [{ bead: 'good1', template: 'A', outcome: 'full_pass' }, { bead: 'good2', template: 'A', outcome: 'agent_failure' }]);
    writeFileSync(join(st.root, 'feedback', 'broken.json'), '{"schema_version": "1.0.0", "bead": ');
    const invalid = makeFeedback({ bead: 'invalid', template: 'A', outcome: 'full_pass' }) as unknown as Record<string, unknown>;
    invalid.outcome = 'great_success';
    writeFileSync(join(st.root, 'feedback', 'invalid.json'), JSON.stringify(invalid));
    const before = readFileSync(join(st.root, 'feedback', 'broken.json'), 'utf8');
    const r = await score();
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/skipped \S*\/feedback\/broken\.json: not valid JSON/);
    expect(r.err).toMatch(/skipped \S*\/feedback\/invalid\.json: \/outcome: must be one of "full_pass"/);
    expect(r.data.templates[0]).toMatchObject({ template: 'A', runs: 2 });
    expect(r.data.sources.skipped.map((s) => s.file.split('/').pop())).toEqual(['broken.json', 'invalid.json']);
    expect(readFileSync(join(st.root, 'feedback', 'broken.json'), 'utf8')).toBe(before);
    // Still reported on the next run (a corrupt file is never indexed).
    expect((await score()).code).toBe(1);
    // A file whose bead disagrees with its name is skipped too.
    writeFileSync(join(st.root, 'feedback', 'other.json'), JSON.stringify(makeFeedback({ bead: 'good1', template: 'A', outcome: 'full_pass' })));
    expect((await score()).err).toMatch(/other\.json: \/bead: is "good1", expected "other"/);
  });
});

describe('concurrent writers', () => {
  it('rows appended by several processes at once all arrive whole', async () => {
    const n = 4;
    const per = 15;
    const script = `
      import { indexFeedback } from ${JSON.stringify(new URL('../../scripts/lib/feedback-index.ts', import.meta.url).href)};
      import { makeFeedback } from ${JSON.stringify(new URL('./_fixtures.ts', import.meta.url).href)};
      import { StateStore } from ${JSON.stringify(new URL('../../scripts/lib/store.ts', import.meta.url).href)};
      const store = new StateStore(process.argv[1]);
      const w = process.argv[2];
      for (let i = 0; i < ${per}; i++) {
        const fb = makeFeedback({ bead: 'w' + w + '-' + i, template: 'T' + w, outcome: 'full_pass', judge: 0.5, issues: [{ description: 'x'.repeat(150) }] });
        store.write('feedback', fb.bead, fb);
        await indexFeedback(store, fb);
      }`;
    await Promise.all(
      Array.from({ length: n }, (_, w) =>
        new Promise<void>((resolve, reject) => {
          const p = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, st.root, String(w)], { stdio: ['ignore', 'ignore', 'inherit'] });
          p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer exited ${code}`))));
        }),
      ),
    );
    const rows: FeedbackIndexRow[] = [];
    const res = await scanFeedback(st.store, (r) => rows.push(r));
    expect(res).toMatchObject({ feedbackFiles: n * per, fromIndex: n * per, readNow: 0, badIndexLines: 0 });
    expect(indexLines()).toHaveLength(n * per);
    expect(new Set(rows.map((r) => r.bead)).size).toBe(n * per);
  });
});

describe('summarizeFeedback', () => {
  it('keeps missing signals missing', () => {
    const row = summarizeFeedback(makeFeedback({ bead: 'x', template: 'A', outcome: 'infra_failure' }), { size: 1, mtime_ms: 2 }, '2026-01-01T00:00:00Z');
    expect(row).toMatchObject({ task_type: null, retries: null, composite: null, judge: null });
  });
});
