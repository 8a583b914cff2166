// Pure: one `git diff --numstat -p -z` answer split into what `--numstat -z` and the plain patch print on their own.

/**
 * The numstat part (each record with its NUL, as `diff --numstat -z` prints it) and the patch (as `diff -p` prints
 * it: -z changes no byte of a patch) of one `diff --numstat -p -z` output, whose parts a lone NUL parts.
 * A rename's record is `added\tdeleted\t\0old\0new\0`. Null when the text is not of that shape.
 */
export function splitNumstatPatch(text: string): { numstat: string; patch: string } | null {
  if (text === '') return { numstat: '', patch: '' };
  let i = 0;
  for (;;) {
    const end = text.indexOf('\0', i);
    if (end === -1) return null;
    if (end === i) return { numstat: text.slice(0, i), patch: text.slice(i + 1) };
    const second = text.indexOf('\t', text.indexOf('\t', i) + 1);
    if (second === -1 || second >= end) return null;
    if (second + 1 < end) i = end + 1;
    else {
      // A rename or copy: the two paths follow, each ended by a NUL.
      const old = text.indexOf('\0', end + 1);
      const to = old === -1 ? -1 : text.indexOf('\0', old + 1);
      if (to === -1) return null;
      i = to + 1;
    }
  }
}
