// Progress of long commands on stderr: live lines on a terminal, one labelled line per event elsewhere, nothing
// under --json/--quiet. The renderer (`renderLive`, `redraw`, `eventLine`) is pure; `Progress` holds the state.

/** What progress needs of a command's Io (lib/cli/cli.ts): where stderr goes and whether it is a terminal. */
export interface ProgressIo {
  stderr: (text: string) => void;
  tty?: boolean;
  columns?: number;
  processEnv?: NodeJS.ProcessEnv;
}

export type ProgressMode = 'tty' | 'lines' | 'off';

/** The mode for a command: off under --json / --quiet, live on a terminal (unless TERM=dumb), else one line per event. */
export function progressMode(
  io: Pick<ProgressIo, 'tty' | 'processEnv'>,
  opts: { json?: boolean; quiet?: boolean } = {},
): ProgressMode {
  if (opts.json || opts.quiet) return 'off';
  if (io.tty && io.processEnv?.TERM !== 'dumb') return 'tty';
  return 'lines';
}

export interface ItemState {
  label: string;
  phase: string;
  done?: number;
  total?: number;
  /** ms (the clock of the Progress) when the item's first event came. */
  started: number;
}

/** Seconds for people: `0.4 s`, `12.3 s`, `2 min 5 s`. */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, ms) / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

const counter = (i: Pick<ItemState, 'done' | 'total'>): string =>
  i.done === undefined ? '' : i.total === undefined ? `[${i.done}] ` : `[${i.done}/${i.total}] `;

/** One event off a terminal: `cmd: label: phase [done/total] (elapsed)`. Pure. */
export function eventLine(command: string, item: ItemState, now: number): string {
  const count =
    item.done === undefined ? '' : item.total === undefined ? ` ${item.done}` : ` ${item.done}/${item.total}`;
  return `${command}: ${item.label}: ${item.phase}${count} (${formatElapsed(now - item.started)})\n`;
}

/** A line cut to the terminal's width (a wrapped line would break the redraw). */
function fit(line: string, columns: number): string {
  const max = Math.max(20, columns - 1);
  const chars = [...line];
  return chars.length <= max ? line : chars.slice(0, max - 1).join('') + '…';
}

/** The live block: one line per item, labels padded to one width. Pure. */
export function renderLive(command: string, items: readonly ItemState[], now: number, columns = 80): string[] {
  const width = Math.min(40, Math.max(0, ...items.map((i) => i.label.length)));
  return items.map((i) =>
    fit(`${command}: ${i.label.padEnd(width)}  ${counter(i)}${i.phase}  ${formatElapsed(now - i.started)}`, columns),
  );
}

/**
 * The bytes that replace a live block of `previous` lines by `permanent` lines (kept in the scroll-back) and then
 * the new block `live`: back to the block's first line (CSI n F), clear to the end of the screen (CSI J), write.
 * Pure.
 */
export function redraw(previous: number, permanent: readonly string[], live: readonly string[]): string {
  const up = previous > 0 ? `\x1b[${previous}F\x1b[J` : '';
  return up + [...permanent, ...live].map((l) => `${l.replace(/\n$/, '')}\n`).join('');
}

export interface ProgressOptions {
  mode: ProgressMode;
  /** Terminal width (live mode). */
  columns?: number;
  /** ms clock; tests pass their own. */
  clock?: () => number;
  /** A counter redraws at most this often on a terminal (ms). */
  throttleMs?: number;
  /** Refresh the elapsed times on a terminal this often (ms); 0: never (tests). */
  tickMs?: number;
}

/**
 * Text as it may reach a terminal: control characters (ESC, BEL, CSI, …) but newline and tab become `?`. Labels,
 * phases and messages carry what the agent's tree chose (paths, branch names, test names in a failure reason): an
 * escape sequence in them must not move the cursor, retitle the window or rewrite what was printed.
 */
function printable(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '?');
}

export class Progress {
  readonly mode: ProgressMode;
  private readonly items = new Map<string, ItemState>();
  private shown = 0;
  private lastDraw = 0;
  private tick: ReturnType<typeof setInterval> | null = null;
  private readonly clock: () => number;
  private readonly columns: number;
  private readonly throttleMs: number;
  private readonly tickMs: number;

  constructor(
    readonly command: string,
    private readonly write: (text: string) => void,
    opts: ProgressOptions,
  ) {
    this.mode = opts.mode;
    this.clock = opts.clock ?? (() => performance.now());
    this.columns = opts.columns || 80; // a pseudo-terminal may say 0
    this.throttleMs = opts.throttleMs ?? 100;
    this.tickMs = opts.tickMs ?? 1000;
  }

  /** The reporter for a command's Io: `--json` / `--quiet` turn it off; a terminal gets the live lines. */
  static for(command: string, io: ProgressIo, opts: { json?: boolean; quiet?: boolean } = {}): Progress {
    return new Progress(command, io.stderr, { mode: progressMode(io, opts), columns: io.columns });
  }

  get enabled(): boolean {
    return this.mode !== 'off';
  }

  private item(label: string): ItemState {
    let i = this.items.get(label);
    if (!i) {
      i = { label, phase: '', started: this.clock() };
      this.items.set(label, i);
    }
    return i;
  }

  /** An event of one item (a phase begins, a step is done): a line off a terminal, the item's live line on one. */
  update(label: string, phase: string, count: { done?: number; total?: number } = {}): void {
    if (this.mode === 'off') return;
    const i = this.item(label);
    Object.assign(i, { phase: printable(phase), done: count.done, total: count.total });
    if (this.mode === 'lines') this.write(eventLine(this.command, i, this.clock()));
    else this.draw([]);
  }

  /**
   * A counter moved (records read, …): on a terminal the item's line is redrawn (at most every throttleMs);
   * off a terminal nothing is printed (one line per event, not per record: call `update` at the phase's end).
   */
  count(label: string, phase: string, done: number, total?: number): void {
    if (this.mode !== 'tty') return;
    const i = this.item(label);
    Object.assign(i, { phase: printable(phase), done, total });
    const now = this.clock();
    if (now - this.lastDraw >= this.throttleMs) this.draw([]);
  }

  /** The item ends: its last event line (kept on a terminal, above the live block); it leaves the block. */
  finish(label: string, phase: string, count: { done?: number; total?: number } = {}): void {
    if (this.mode === 'off') return;
    const i = this.item(label);
    Object.assign(i, { phase: printable(phase), done: count.done, total: count.total });
    const line = eventLine(this.command, i, this.clock());
    this.items.delete(label);
    if (this.mode === 'lines') this.write(line);
    else this.draw([fit(line.trimEnd(), this.columns)]);
  }

  /** A message that is not progress (a warning, a result line): printed in every mode, above the live block. */
  message(raw: string): void {
    const text = printable(raw);
    if (this.mode !== 'tty') {
      this.write(text.endsWith('\n') || text === '' ? text : `${text}\n`);
      return;
    }
    this.draw(text.replace(/\n$/, '').split('\n'));
  }

  /** Clears the live block (call before printing the result); the reporter can be used again afterwards. */
  end(): void {
    if (this.tick) clearInterval(this.tick);
    this.tick = null;
    if (this.mode === 'tty' && this.shown > 0) this.write(redraw(this.shown, [], []));
    this.shown = 0;
    this.items.clear();
  }

  private draw(permanent: string[]): void {
    const now = this.clock();
    this.lastDraw = now;
    const live = renderLive(this.command, [...this.items.values()], now, this.columns);
    this.write(redraw(this.shown, permanent, live));
    this.shown = live.length;
    if (this.tickMs > 0 && live.length > 0 && !this.tick) {
      this.tick = setInterval(() => this.shown > 0 && this.draw([]), this.tickMs);
      this.tick.unref();
    } else if (live.length === 0 && this.tick) {
      clearInterval(this.tick);
      this.tick = null;
    }
  }
}
