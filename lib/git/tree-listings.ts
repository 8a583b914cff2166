// Pure: `git diff-tree -r -z --stdin` of the empty tree against several trees, read back as each tree's
// `ls-tree -r -z --full-tree` answer (one git process for several listings).

/** The empty tree's id in the object format of `oid` (sha1: 40 hex digits, sha256: 64). */
export function emptyTree(oid: string): string {
  return oid.length === 64
    ? '6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321'
    : '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
}

/**
 * Each tree's listing, by tree id, as `ls-tree -r -z --full-tree` prints it (`<mode> <type> <oid>\t<path>\0`, in
 * git's order), from the output of `diff-tree -r -z --no-renames --stdin` fed `<empty> <tree>` lines: a header
 * line `<empty> <tree>\n` per tree, then `:000000 <mode> <zero> <oid> A\0<path>\0` per entry. Null when the text
 * is not of that shape.
 */
export function parseTreeListings(text: string): Map<string, string> | null {
  const out = new Map<string, string>();
  let tree: string | null = null;
  let lines: string[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] === ':') {
      const metaEnd = text.indexOf('\0', i);
      const pathEnd = metaEnd === -1 ? -1 : text.indexOf('\0', metaEnd + 1);
      if (tree === null || pathEnd === -1) return null;
      const m = /^:000000 ([0-7]{6}) 0+ ([0-9a-f]{40}|[0-9a-f]{64}) A$/.exec(text.slice(i, metaEnd));
      if (!m) return null;
      const type = m[1] === '160000' ? 'commit' : m[1] === '040000' ? 'tree' : 'blob';
      lines.push(`${m[1]} ${type} ${m[2]}\t${text.slice(metaEnd + 1, pathEnd)}\0`);
      i = pathEnd + 1;
      continue;
    }
    const end = text.indexOf('\n', i);
    const head = /^([0-9a-f]{40}|[0-9a-f]{64}) ([0-9a-f]{40}|[0-9a-f]{64})$/.exec(end === -1 ? '' : text.slice(i, end));
    if (!head) return null;
    if (tree !== null) out.set(tree, lines.join(''));
    tree = head[2]!;
    lines = [];
    i = end + 1;
  }
  if (tree !== null) out.set(tree, lines.join(''));
  return out;
}
