// Sorted JSONL streams in bounded memory (for the feedback index): lines of a file read in small chunks, a k-way
// merge of sorted streams (the later one wins a key), and an external sort with dedupe spilling runs to state/.tmp.
import { closeSync, constants, fstatSync, mkdirSync, openSync, readSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { causeOf, StateWriteError, tempName, writeAll } from './state-write.js';

/**
 * Chunk size for reading and writing the index. Small on purpose: a string over ~128 KB is allocated in V8's
 * large-object space, freed only by a full GC, so 1 MB chunks made the peak grow with the index's size.
 */
export const CHUNK = 1 << 15;

/** Lines of an open file up to byte `end`, read in chunks of `bufSize`, so memory does not grow with the file. */
export function* linesOfFd(fd: number, end: number, bufSize = CHUNK): Generator<string> {
  const buf = Buffer.allocUnsafe(bufSize);
  const dec = new StringDecoder('utf8'); // a character split between two chunks stays whole
  let pos = 0;
  let rest = '';
  while (pos < end) {
    const n = readSync(fd, buf, 0, Math.min(buf.length, end - pos), pos);
    if (n <= 0) break;
    pos += n;
    const parts = (rest + dec.write(buf.subarray(0, n))).split('\n');
    rest = parts.pop()!;
    for (const p of parts) yield p;
  }
  rest += dec.end();
  if (rest) yield rest;
}

export function* linesOfFile(file: string, bufSize?: number): Generator<string> {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  try {
    yield* linesOfFd(fd, fstatSync(fd).size, bufSize);
  } finally {
    closeSync(fd);
  }
}

/**
 * k-way merge of streams sorted by key; for equal keys the later stream (and, within one stream, the later line)
 * wins. Memory: one head per stream.
 */
export function* mergeSorted(sources: Iterator<[string, string]>[]): Generator<[string, string]> {
  const heads = sources.map((s) => s.next());
  for (;;) {
    let min: string | undefined;
    for (const h of heads) if (!h.done && (min === undefined || h.value[0] < min)) min = h.value[0];
    if (min === undefined) return;
    let win = '';
    for (let i = 0; i < heads.length; i++) {
      while (!heads[i]!.done && heads[i]!.value![0] === min) {
        win = heads[i]!.value![1];
        heads[i] = sources[i]!.next();
      }
    }
    yield [min, win];
  }
}

/**
 * An external sort with dedupe (the last line per key wins): up to `max` keys in memory, then a sorted run file in
 * a temporary folder. `sources()` gives the runs oldest first, for mergeSorted.
 */
export class SortedRuns {
  private mem = new Map<string, string>();
  private files: string[] = [];
  private tmp: string | null = null;
  constructor(
    private readonly parent: string,
    private readonly max: number,
  ) {}

  add(key: string, line: string): void {
    this.mem.set(key, line);
    if (this.mem.size >= this.max) this.spill();
  }

  private spill(): void {
    const file = join(this.tmp ?? join(this.parent, tempName('sort')), `run-${this.files.length}`);
    const keys = [...this.mem.keys()].sort();
    try {
      if (!this.tmp) {
        this.tmp = join(file, '..');
        mkdirSync(this.tmp, { recursive: true });
      }
      // A run file is read back by this process only: every byte written (a short write would drop rows), no fsync.
      const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC, 0o600);
      try {
        let chunk = '';
        for (const k of keys) {
          chunk += this.mem.get(k)! + '\n';
          if (chunk.length > CHUNK) {
            writeAll(fd, Buffer.from(chunk));
            chunk = '';
          }
        }
        writeAll(fd, Buffer.from(chunk));
      } finally {
        closeSync(fd);
      }
    } catch (e) {
      if (e instanceof StateWriteError) throw e;
      throw new StateWriteError(
        file,
        (e as NodeJS.ErrnoException).code,
        `cannot write ${file}: ${causeOf(e)}; the index is unchanged (a run of its external sort)`,
      );
    }
    this.files.push(file);
    this.mem.clear();
  }

  sources(key: (line: string) => string | undefined): Iterator<[string, string]>[] {
    const fromFile = function* (file: string): Generator<[string, string]> {
      for (const line of linesOfFile(file)) {
        const k = key(line);
        if (k !== undefined) yield [k, line];
      }
    };
    const mem = [...this.mem.keys()].sort().map((k): [string, string] => [k, this.mem.get(k)!]);
    this.mem = new Map();
    return [...this.files.map((f) => fromFile(f)), mem[Symbol.iterator]()];
  }

  cleanup(): void {
    if (this.tmp) rmSync(this.tmp, { recursive: true, force: true });
  }
}
