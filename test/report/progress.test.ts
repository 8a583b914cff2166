// The progress reporter: the renderer as pure functions (a terminal's bytes given isTTY), the three modes, and
// the real commands — bin/race and bin/score-templates with stderr piped, under --json, and on a pseudo-terminal
// (util-linux `script`).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderFeedback } from '../../lib/collector/record-order.js';
import { eventLine, formatElapsed, Progress, progressMode, redraw, renderLive } from '../../lib/report/progress.js';
import type { Race, TemplateScores } from '../../lib/schema/types.generated.js';
import { addSolution, makeRaceProject, SOLUTIONS, type RaceProject } from '../race/_fixture.js';
import { makeFeedback, tempState, type TempState } from '../templates/_fixtures.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** A Progress on a fake clock (ms, advanced by hand), collecting what it writes. */
function fake(mode: 'tty' | 'lines' | 'off', columns = 80) {
  let t = 0;
  let out = '';
  const p = new Progress('race', (s) => void (out += s), { mode, columns, clock: () => t, tickMs: 0, throttleMs: 100 });
  return { p, advance: (ms: number) => void (t += ms), out: () => out, reset: () => void (out = '') };
}

describe('renderer (pure)', () => {
  it("text the agent's tree chose cannot drive the terminal: its control characters print as ?", () => {
    // A failure reason naming a hostile path: retitle the window (OSC), clear the screen (CSI), ring the bell.
    const hostile = 'refused: gitdir \x1b]0;owned\x07 at /w/\x1b[2J\x1b[H\x9b31mred';
    for (const mode of ['tty', 'lines'] as const) {
      const f = fake(mode);
      f.p.update('bd-a', hostile);
      f.p.message(`bd-a: ${hostile}\nsecond line`);
      f.p.finish('bd-a', hostile);
      f.p.end();
      // What is left of ESC once progress's own cursor moves (ESC [ n F, ESC [ J) are taken out: nothing.
      const own = f.out().replace(/\x1b\[\d*[FJ]/g, '');
      expect(own).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
      expect(own).toContain('refused: gitdir ?]0;owned? at /w/?[2J?[H?31mred');
      expect(own).toContain('second line');
    }
  });
  it('formats elapsed time, event lines and live lines', () => {
    expect(formatElapsed(3240)).toBe('3.2 s');
    expect(formatElapsed(125_000)).toBe('2 min 5 s');
    expect(eventLine('race', { label: 'sol-b', phase: 'checks done', started: 1000 }, 4200)).toBe(
      'race: sol-b: checks done (3.2 s)\n',
    );
    expect(eventLine('judge --drain', { label: 'bd-1', phase: 'judging', done: 2, total: 5, started: 0 }, 0)).toBe(
      'judge --drain: bd-1: judging 2/5 (0.0 s)\n',
    );
    const live = renderLive(
      'race',
      [
        { label: 'a', phase: 'collect', started: 0 },
        { label: 'long-id', phase: 'judge', done: 2, total: 3, started: 500 },
      ],
      1500,
    );
    expect(live).toEqual(['race: a        collect  1.5 s', 'race: long-id  [2/3] judge  1.0 s']);
    // Cut to the terminal's width (a wrapped line would break the redraw).
    const [cut] = renderLive('race', [{ label: 'x', phase: 'y'.repeat(200), started: 0 }], 0, 40);
    expect([...cut!].length).toBe(39);
    expect(cut!.endsWith('…')).toBe(true);
  });

  it('redraw goes back over the previous block, clears it, writes the kept lines then the live ones', () => {
    expect(redraw(0, [], ['a', 'b'])).toBe('a\nb\n');
    expect(redraw(2, ['done'], ['b'])).toBe('\x1b[2F\x1b[Jdone\nb\n');
    expect(redraw(1, [], [])).toBe('\x1b[1F\x1b[J');
  });

  it('modes: off under --json or --quiet; a terminal (not TERM=dumb) is live; else lines', () => {
    expect(progressMode({ tty: true, processEnv: {} }, { json: true })).toBe('off');
    expect(progressMode({ tty: true, processEnv: {} }, { quiet: true })).toBe('off');
    expect(progressMode({ tty: true, processEnv: {} })).toBe('tty');
    expect(progressMode({ tty: true, processEnv: { TERM: 'dumb' } })).toBe('lines');
    expect(progressMode({ tty: false, processEnv: {} })).toBe('lines');
    expect(progressMode({})).toBe('lines');
  });
});

describe('Progress', () => {
  it('off a terminal: one labelled line per event, none per count; messages pass through', () => {
    const f = fake('lines');
    f.p.update('sol-a', 'collect');
    f.advance(3200);
    f.p.count('sol-a', 'records', 10);
    f.p.update('sol-a', 'checks done');
    f.p.message('race: a warning');
    f.p.finish('sol-a', 'done', { done: 1, total: 2 });
    f.p.end();
    expect(f.out()).toBe(
      'race: sol-a: collect (0.0 s)\nrace: sol-a: checks done (3.2 s)\nrace: a warning\nrace: sol-a: done 1/2 (3.2 s)\n',
    );
  });

  it('on a terminal: a live line per item redrawn in place; a finished item stays above the block; end clears it', () => {
    const f = fake('tty');
    f.p.update('sol-a', 'collect');
    expect(f.out()).toBe('race: sol-a  collect  0.0 s\n');
    f.reset();
    f.advance(1000);
    f.p.update('sol-b', 'collect');
    expect(f.out()).toBe('\x1b[1F\x1b[Jrace: sol-a  collect  1.0 s\nrace: sol-b  collect  0.0 s\n');
    f.reset();
    f.advance(50);
    f.p.count('sol-b', 'records', 10); // within the throttle: not drawn
    expect(f.out()).toBe('');
    f.advance(150);
    f.p.count('sol-b', 'records', 20);
    expect(f.out()).toBe('\x1b[2F\x1b[Jrace: sol-a  collect  1.2 s\nrace: sol-b  [20] records  0.2 s\n');
    f.reset();
    f.p.message('race: a warning');
    expect(f.out()).toBe(
      '\x1b[2F\x1b[Jrace: a warning\nrace: sol-a  collect  1.2 s\nrace: sol-b  [20] records  0.2 s\n',
    );
    f.reset();
    f.p.finish('sol-a', 'done');
    expect(f.out()).toBe('\x1b[2F\x1b[Jrace: sol-a: done (1.2 s)\nrace: sol-b  [20] records  0.2 s\n');
    f.reset();
    f.p.end();
    expect(f.out()).toBe('\x1b[1F\x1b[J');
  });

  it('off: nothing but messages', () => {
    const f = fake('off');
    f.p.update('a', 'x');
    f.p.count('a', 'x', 1);
    f.p.finish('a', 'y');
    f.p.message('kept');
    f.p.end();
    expect(f.out()).toBe('kept\n');
  });
});

describe('bin/race', () => {
  let p: RaceProject;
  const race = (args: string[]) =>
    spawnSync(join(ROOT, 'bin', 'race'), args, {
      cwd: p.dir,
      encoding: 'utf8',
      env: { ...process.env, JUDGELOOP_STATE_DIR: p.state, NO_COLOR: '1', JUDGELOOP_NOW: '2026-01-02T00:00:00Z' },
    });
  beforeAll(() => {
    p = makeRaceProject();
    addSolution(p, 'clean', SOLUTIONS.clean!);
    addSolution(p, 'stub', SOLUTIONS.stub!);
  });

  it('piped: every stderr line is labelled by its solution (or the baseline); stdout is byte-identical with --quiet', () => {
    const piped = race(['clean.json', 'stub.json']);
    expect(piped.status, piped.stderr).toBe(0);
    const lines = piped.stderr.trimEnd().split('\n');
    for (const l of lines) expect(l).toMatch(/^race: (bd-clean|bd-stub|baseline [0-9a-f]{12}): \S/);
    for (const bead of ['bd-clean', 'bd-stub']) {
      const mine = lines
        .filter((l) => l.startsWith(`race: ${bead}: `))
        .map((l) => l.slice(`race: ${bead}: `.length).replace(/ \(\d+(\.\d)? s\)$|\(\d+ min \d+ s\)$/, ''));
      expect(mine[0]).toBe('collect');
      expect(mine).toContain('evaluate');
      expect(mine.some((m) => /^checks done \((full_pass|partial_pass|agent_failure)\)$/.test(m))).toBe(true);
      expect(mine.at(-1)).toMatch(/^done [12]\/2$/);
      // The collector's own steps are labelled too (they were unlabeled and interleaved before).
      expect(mine.some((m) => /^test: node --test/.test(m))).toBe(true);
    }
    expect(lines.some((l) => /^race: baseline [0-9a-f]{12}: (checks done|cached)/.test(l))).toBe(true);
    const quiet = race(['--quiet', 'clean.json', 'stub.json']);
    expect(quiet.stderr).toBe('');
    expect(quiet.stdout).toBe(piped.stdout);
  });

  it('--json: stdout is the race as JSON alone, and no progress on stderr', () => {
    const r = race(['--json', 'clean.json', 'stub.json']);
    expect(r.status).toBe(0);
    const data = JSON.parse(r.stdout) as Race;
    expect(data.solutions.map((s) => s.id).sort()).toEqual(['bd-clean', 'bd-stub']);
    expect(r.stderr).not.toMatch(/^race: bd-/m);
  });

  it('on a terminal (script): live lines redrawn in place on stderr; stdout (a file) is the same as piped', () => {
    const hasScript = spawnSync('script', ['--version']).status === 0;
    expect(hasScript, 'script is not installed: apt-get install bsdutils').toBe(true);
    const out = join(p.dir, 'tty-stdout.txt');
    const cmd = `cd '${p.dir}' && '${join(ROOT, 'bin', 'race')}' clean.json stub.json > '${out}'`;
    const r = spawnSync('script', ['-qec', cmd, '/dev/null'], {
      encoding: 'utf8',
      env: {
        ...process.env,
        JUDGELOOP_STATE_DIR: p.state,
        NO_COLOR: '1',
        TERM: 'xterm',
        JUDGELOOP_NOW: '2026-01-02T00:00:00Z',
      },
    });
    expect(r.status, r.stdout).toBe(0);
    const tty = r.stdout;
    expect(tty).toMatch(/\x1b\[\d+F\x1b\[J/); // the block redrawn in place
    expect(tty).toMatch(/race: bd-clean +(collect|evaluate|test: node --test)/); // a live line (label padded)
    expect(tty).toMatch(/race: bd-stub: done [12]\/2 \(/); // a finished item's kept line
    const piped = race(['--quiet', 'clean.json', 'stub.json']);
    expect(readFileSync(out, 'utf8')).toBe(piped.stdout);
  });
});

describe('bin/score-templates', () => {
  let st: TempState;
  const N = 2100;
  beforeAll(() => {
    st = tempState();
    // Feedback written before any index (copied in): the first read parses every file — a long read.
    mkdirSync(join(st.root, 'feedback'), { recursive: true });
    for (let i = 0; i < N; i++) {
      const fb = orderFeedback(
        makeFeedback({ bead: `r${i}`, template: `t${i % 3}`, outcome: i % 4 ? 'full_pass' : 'partial_pass' }),
      );
      writeFileSync(join(st.root, 'feedback', `r${i}.json`), JSON.stringify(fb, null, 2) + '\n');
    }
  });
  afterAll(() => st?.cleanup());
  const score = (args: string[]) =>
    spawnSync(join(ROOT, 'bin', 'score-templates'), args, {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, JUDGELOOP_STATE_DIR: st.root },
    });

  it('over 2,000 records, piped: one labelled line at the end; --json: stdout JSON alone and no progress', () => {
    const first = score([]);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toMatch(
      new RegExp(
        `^score-templates: feedback: ${N} records scored \\(0 from the index, ${N} read from their files\\) \\(\\d+\\.\\d s\\)\\n$`,
      ),
    );
    const json = score(['--json']);
    expect(json.stderr).toBe('');
    expect((JSON.parse(json.stdout) as TemplateScores).sources).toMatchObject({
      feedback_files: N,
      from_index: N,
      read_now: 0,
    });
  });
});
