// The one feedback reader on real files: a record, a missing one, and each way a file can be corrupt.
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { feedbackNames, readFeedback } from '../../lib/store/feedback-read.js';
import { makeFeedback, tempState, type TempState } from '../templates/_fixtures.js';

let st: TempState;
afterEach(() => st?.cleanup());

describe('readFeedback', () => {
  it('a stored record comes back with its file identity as stat sees it', () => {
    st = tempState();
    const fb = makeFeedback({ bead: 'bd-1', template: 't', outcome: 'full_pass', composite: 0.9 });
    const file = st.store.write('feedback', 'bd-1', fb);
    const r = readFeedback(st.store, 'bd-1');
    expect(r.status).toBe('ok');
    if (r.status !== 'ok') return;
    expect(r.feedback).toEqual(fb);
    const s = statSync(file);
    expect(r.identity).toEqual({ size: s.size, mtime_ms: s.mtimeMs });
  });

  it('no file: missing (not an error)', () => {
    st = tempState();
    expect(readFeedback(st.store, 'bd-none')).toEqual({
      status: 'missing',
      file: st.store.path('feedback', 'bd-none'),
    });
  });

  it('corrupt: not JSON, empty, fails the schema, or names another bead than its file', () => {
    st = tempState();
    mkdirSync(st.store.dir('feedback'), { recursive: true });
    const other = makeFeedback({ bead: 'bd-other', template: 't', outcome: 'partial_pass' });
    const cases: [string, string, RegExp][] = [
      ['bd-json', '{"bead": "bd-json",', /not valid JSON/],
      ['bd-empty', '', /not valid JSON/],
      ['bd-schema', JSON.stringify({ bead: 'bd-schema' }), /required|must have/],
      ['bd-name', JSON.stringify(other), /expected "bd-name" \(the file name\)/],
    ];
    for (const [bead, text, why] of cases) {
      writeFileSync(st.store.path('feedback', bead), text);
      const r = readFeedback(st.store, bead);
      expect(r.status, bead).toBe('corrupt');
      if (r.status === 'corrupt') expect(r.error.problems.join('; '), bead).toMatch(why);
    }
  });

  it('feedbackNames lists the beads of state/feedback (no hidden or temporary files), nothing when the folder is absent', () => {
    st = tempState();
    expect([...feedbackNames(st.store)]).toEqual([]);
    for (const b of ['bd-a', 'bd-b'])
      st.store.write('feedback', b, makeFeedback({ bead: b, template: 't', outcome: 'full_pass' }));
    writeFileSync(st.store.path('feedback', 'bd-a').replace('bd-a.json', '.bd-c.json'), '{}');
    expect([...feedbackNames(st.store)].sort()).toEqual(['bd-a', 'bd-b']);
  });
});
