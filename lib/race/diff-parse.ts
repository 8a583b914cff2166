// Unified diff text → per-file added and removed lines (pure).

export interface AddedLine {
  line: number;
  text: string;
}

export interface FilePatch {
  path: string;
  oldPath: string | null;
  /** The file is new (/dev/null before). */
  created: boolean;
  /** The file was deleted (/dev/null after). */
  deleted: boolean;
  binary: boolean;
  added: AddedLine[];
  removed: string[];
  /** The removed lines with their line number in the old file. */
  removedLines: AddedLine[];
}

function unquote(p: string): string {
  if (p.startsWith('"') && p.endsWith('"')) return JSON.parse(p) as string;
  return p;
}

function stripPrefix(p: string): string | null {
  const q = unquote(p.trim());
  if (q === '/dev/null') return null;
  return q.replace(/^[ab]\//, '');
}

/** Parses `git diff` output (a/ b/ prefixes). Added lines carry their line number in the new file. */
export function parseUnifiedDiff(text: string): FilePatch[] {
  const files: FilePatch[] = [];
  let cur: FilePatch | null = null;
  let newLine = 0;
  let oldLine = 0;
  let inHunk = false;
  for (const raw of text.split('\n')) {
    if (raw.startsWith('diff --git ')) {
      const m = /^diff --git (\S+|"[^"]+") (\S+|"[^"]+")$/.exec(raw);
      const path = m ? (stripPrefix(m[2]!) ?? '') : raw.slice(11);
      cur = { path, oldPath: m ? stripPrefix(m[1]!) : null, created: false, deleted: false, binary: false, added: [], removed: [], removedLines: [] };
      files.push(cur);
      inHunk = false;
      continue;
    }
    if (!cur) continue;
    if (!inHunk) {
      if (raw.startsWith('new file mode')) cur.created = true;
      else if (raw.startsWith('deleted file mode')) cur.deleted = true;
      else if (raw.startsWith('Binary files ')) cur.binary = true;
      else if (raw.startsWith('+++ ')) {
        const p = stripPrefix(raw.slice(4));
        if (p !== null) cur.path = p;
      } else if (raw.startsWith('--- ')) {
        cur.oldPath = stripPrefix(raw.slice(4));
      }
    }
    const h = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(raw);
    if (h) {
      inHunk = true;
      oldLine = Number(h[1]);
      newLine = Number(h[2]);
      continue;
    }
    if (!inHunk) continue;
    if (raw.startsWith('+')) cur.added.push({ line: newLine++, text: raw.slice(1) });
    else if (raw.startsWith('-')) {
      cur.removed.push(raw.slice(1));
      cur.removedLines.push({ line: oldLine++, text: raw.slice(1) });
    } else if (raw.startsWith(' ')) {
      newLine++;
      oldLine++;
    }
  }
  return files;
}
