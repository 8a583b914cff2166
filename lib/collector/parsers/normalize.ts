// Turns raw terminal output into plain lines: no ANSI, no CR, progress overwrites resolved.

// CSI (colours, cursor moves), OSC (titles, hyperlinks; BEL or ST ended), charset selection (ESC ( B), other 2-byte escapes.
const ANSI =
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[()*+][0-9A-Za-z]|\u001b[@-Z\\-_=>]|\u009b[0-?]*[ -/]*[@-~]/g;

export function stripAnsi(text: string): string {
  return text.includes('\u001b') || text.includes('\u009b') ? text.replace(ANSI, '') : text;
}

/** One line after `\r` overwrites: what a terminal would show last (ignoring an empty tail after a trailing `\r`). */
function resolveCarriageReturns(line: string): string {
  if (!line.includes('\r')) return line;
  const parts = line.split('\r');
  for (let i = parts.length - 1; i >= 0; i--) if (parts[i] !== '') return parts[i] as string;
  return '';
}

export function normalizeLines(text: string): string[] {
  const plain = stripAnsi(text).replace(/\r\n/g, '\n');
  const lines = plain.split('\n');
  for (let i = 0; i < lines.length; i++) lines[i] = resolveCarriageReturns(lines[i] as string);
  return lines;
}

/** The marker a caller leaves where it cut the middle out of a long output. */
const OMITTED = /^\[\.\.\. ?(\d+) bytes omitted ?\.\.\.\]$/;

export function omittedBytes(lines: readonly string[]): number | null {
  let total: number | null = null;
  for (const line of lines) {
    const m = OMITTED.exec(line.trim());
    if (m) total = (total ?? 0) + Number(m[1]);
  }
  return total;
}
