// Pure: a git index file (version 2 or 3) read back as the `ls-tree -r -z --full-tree` answer of the tree that
// `write-tree` makes of it (the snapshot's throwaway index: no process to list the tree git just wrote).

/**
 * The listing of an index's entries, `<mode> <type> <oid>\t<path>\0` each in the index's order (git's path order, the
 * one ls-tree -r prints), or null when the file is not a version 2/3 index of stage-0 entries only (an unmerged or
 * intent-to-add entry, version 4's compressed paths, a short or odd file: ask git instead). `oidBytes`: 20 or 32.
 */
export function indexListing(buf: Buffer, oidBytes: number): string | null {
  if (buf.length < 12 || buf.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = buf.readUInt32BE(4);
  if (version !== 2 && version !== 3) return null;
  const count = buf.readUInt32BE(8);
  const out: string[] = [];
  let at = 12;
  for (let n = 0; n < count; n++) {
    const flagsAt = at + 40 + oidBytes;
    if (flagsAt + 2 > buf.length) return null;
    const mode = buf.readUInt32BE(at + 24);
    const flags = buf.readUInt16BE(flagsAt);
    if (flags & 0x3000) return null; // a stage other than 0: unmerged
    let pathAt = flagsAt + 2;
    if (flags & 0x4000) {
      if (version < 3 || pathAt + 2 > buf.length) return null;
      if (buf.readUInt16BE(pathAt) & 0x2000) return null; // intent-to-add: not in the tree
      pathAt += 2;
    }
    const end = buf.indexOf(0, pathAt);
    if (end === -1) return null;
    const kind = mode >>> 12;
    const type = kind === 0o16 ? 'commit' : kind === 0o10 || kind === 0o12 ? 'blob' : null;
    if (type === null) return null;
    const oid = buf.toString('hex', at + 40, at + 40 + oidBytes);
    out.push(`${mode.toString(8).padStart(6, '0')} ${type} ${oid}\t${buf.toString('utf8', pathAt, end)}\0`);
    // Entries are padded with 1-8 NULs to a multiple of 8 bytes from their start.
    at += (end - at + 8) & ~7;
  }
  return out.join('');
}
