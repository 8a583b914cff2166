// The feedback layout (summary first, raw output last, floats to 4 places) and the index's head reader that relies
// on it: real files in a temporary state folder, read through scanFeedback as bin/score-templates reads them.
import { mkdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FEEDBACK_KEY_ORDER, orderFeedback, round4 } from '../../lib/collector/record-order.js';
import { readFeedback, readFeedbackHead } from '../../lib/store/feedback-read.js';
import { scanFeedback } from '../../lib/store/feedback-index.js';
import { summarizeFeedback } from '../../lib/store/feedback-index.js';
import { validate } from '../../lib/schema/schema.js';
import type { Feedback, FeedbackIndexRow } from '../../lib/schema/types.generated.js';
import { makeFeedback, tempState, type TempState } from '../templates/_fixtures.js';

/** A record with a test check carrying raw output and per-test cases, and unrounded floats. */
function measured(bead: string): Feedback {
  const fb = makeFeedback({
    bead,
    template: 'T',
    outcome: 'partial_pass',
    judge: 0.6666666,
    issues: [{ description: 'a stub left', category: 'stub' }],
  });
  const text = 'ok 1 - adds\n'.repeat(2000);
  fb.checks.test = {
    status: 'failed',
    exit_code: 1,
    duration_ms: 1234,
    source: 'collector',
    output: { text, bytes: text.length, truncated: false },
    tests: {
      runner: 'node',
      passed: 2,
      failed: 1,
      skipped: 0,
      errors: 0,
      total: 3,
      cases: [{ id: 'adds', status: 'failed' }],
      cases_complete: true,
      source: 'console',
    },
  };
  fb.composite = 0.123456789;
  fb.scores.tests = 2 / 3;
  fb.speed = { basis: 'budget', duration_seconds: 60.000004, reference_seconds: 600 };
  return fb;
}

describe('orderFeedback', () => {
  it('summary keys first, the bulk last; output and cases after their summaries; floats to 4 places; still schema-valid', () => {
    const fb = orderFeedback(measured('b1'));
    expect(Object.keys(fb)).toEqual(FEEDBACK_KEY_ORDER.filter((k) => k in fb));
    expect(Object.keys(fb).slice(0, 5)).toEqual(['schema_version', 'bead', 'outcome', 'outcome_reason', 'composite']);
    expect(Object.keys(fb).at(-1)).toBe('checks');
    expect(Object.keys(fb.checks.test!).at(-1)).toBe('output');
    expect(Object.keys(fb.checks.test!.tests!).at(-1)).toBe('cases');
    expect(fb.composite).toBe(0.1235);
    expect(fb.scores.tests).toBe(0.6667);
    expect(fb.judgment!.score).toBe(0.6667);
    expect(fb.speed.duration_seconds).toBe(60);
    expect(fb.checks.test!.duration_ms).toBe(1234);
    const v = validate('feedback', fb);
    expect(v.ok ? [] : v.errors).toEqual([]);
    // The raw output is the last thing in the file: everything a person reads first comes before it.
    const text = JSON.stringify(fb, null, 2);
    expect(text.indexOf('"outcome"')).toBeLessThan(300);
    expect(text.indexOf('ok 1 - adds')).toBeGreaterThan(text.indexOf('"cases"'));
  });

  it('round4', () => {
    expect([round4(1 / 3), round4(2), round4(-0.00001), round4(0.99995), round4(1e-9)]).toEqual([0.3333, 2, 0, 1, 0]);
  });
});

describe('reading feedback for the index', () => {
  let st: TempState;
  beforeEach(() => {
    st = tempState();
    mkdirSync(join(st.root, 'feedback'));
  });
  afterEach(() => st.cleanup());
  const file = (bead: string) => join(st.root, 'feedback', `${bead}.json`);
  const scan = async () => {
    const rows: FeedbackIndexRow[] = [];
    const res = await scanFeedback(st.store, (r) => rows.push(r));
    return { rows, res };
  };

  it('a record in the writer layout is read by its head alone; the row equals the one from the whole record', async () => {
    const fb = orderFeedback(measured('b1'));
    st.store.write('feedback', 'b1', fb);
    const head = readFeedbackHead(file('b1'));
    expect(head).not.toBeNull();
    expect(head!.feedback).not.toHaveProperty('checks');
    const whole = readFeedback(st.store, 'b1');
    if (whole.status !== 'ok') throw new Error(`b1: ${whole.status}`);
    expect(whole.feedback).toEqual(fb);
    const { rows, res } = await scan();
    expect(res).toMatchObject({ readNow: 1, skipped: [] });
    expect(rows[0]).toMatchObject({
      bead: 'b1',
      template: 'T',
      outcome: 'partial_pass',
      composite: 0.1235,
      judge: { score: 0.6667, verdict: 'partial', issues: [{ key: 'stub' }] },
    });
    expect(rows[0]).toEqual(summarizeFeedback(whole.feedback, whole.identity, rows[0]!.indexed_at));
  });

  it('a record in another layout is parsed whole and validated', async () => {
    writeFileSync(file('old'), JSON.stringify(measured('old'), null, 2) + '\n'); // keys in the old order
    expect(readFeedbackHead(file('old'))).toBeNull();
    const { res } = await scan();
    expect(res).toMatchObject({ readNow: 1, skipped: [] });
  });

  it('corrupt files in the writer layout are still reported: cut short, a bad value in the head, a bad value in the bulk', async () => {
    st.store.write('feedback', 'good', orderFeedback(measured('good')));
    st.store.write('feedback', 'cut', orderFeedback(measured('cut')));
    truncateSync(file('cut'), Math.floor(readFileSync(file('cut')).length * 0.6)); // the head is whole, the end is not
    st.store.write(
      'feedback',
      'small',
      orderFeedback(makeFeedback({ bead: 'small', template: 'T', outcome: 'full_pass' })),
    );
    truncateSync(file('small'), readFileSync(file('small')).length - 3); // within the first read: its end is checked there
    const bad = JSON.stringify(orderFeedback(measured('bad')), null, 2).replace(
      '"outcome": "partial_pass"',
      '"outcome": "great"',
    );
    writeFileSync(file('bad'), bad + '\n');
    const { rows, res } = await scan();
    expect(rows.map((r) => r.bead)).toEqual(['good']);
    const problems = Object.fromEntries(res.skipped.map((s) => [s.file.split('/').pop(), s.problem]));
    expect(problems['cut.json']).toMatch(/^not valid JSON/);
    expect(problems['small.json']).toMatch(/^not valid JSON/);
    expect(problems['bad.json']).toMatch(/^\/outcome: must be one of "full_pass"/);
  });

  it('a bad value in the bulk of a file we wrote is not looked at by the scores (validated when written)', async () => {
    const text = JSON.stringify(orderFeedback(measured('b2')), null, 2).replace('"runner": "node"', '"runner": 7');
    writeFileSync(file('b2'), text + '\n');
    expect(readFeedbackHead(file('b2'))).not.toBeNull();
    const whole = readFeedback(st.store, 'b2');
    expect(whole.status).toBe('corrupt');
    expect(whole.status === 'corrupt' && whole.error.problems.join('; ')).toMatch(
      /\/checks\/test\/tests\/runner: must be string/,
    );
    const { rows } = await scan();
    expect(rows.map((r) => r.bead)).toEqual(['b2']);
  });
});
