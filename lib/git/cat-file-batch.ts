// Pure: the answer of `git cat-file --batch` (read as latin1, one char per byte) split into its objects, in the
// order of the names asked.

/** One object `--batch` printed: its type and its bytes (latin1); null for a name git calls missing or ambiguous. */
export type BatchObject = { type: string; body: string } | null;

/**
 * The `count` objects of one `cat-file --batch` output: `<oid> <type> <size>\n<size bytes>\n` each, or
 * `<name> missing\n` / `<name> ambiguous\n`. Null when the text is not of that shape.
 */
export function parseCatFileBatch(text: string, count: number): BatchObject[] | null {
  const out: BatchObject[] = [];
  let i = 0;
  while (out.length < count) {
    const end = text.indexOf('\n', i);
    if (end === -1) return null;
    const head = text.slice(i, end);
    const m = /^(?:[0-9a-f]{40}|[0-9a-f]{64}) ([a-z]+) (\d+)$/.exec(head);
    if (m) {
      const size = Number(m[2]);
      if (text[end + 1 + size] !== '\n') return null;
      out.push({ type: m[1]!, body: text.slice(end + 1, end + 1 + size) });
      i = end + 2 + size;
    } else if (/ (missing|ambiguous)$/.test(head)) {
      out.push(null);
      i = end + 1;
    } else return null;
  }
  return i === text.length ? out : null;
}
