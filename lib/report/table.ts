// The one table renderer for people (pure): aligned text columns, or a markdown table.

type Align = 'left' | 'right';

export interface TextTableOptions {
  /** Per column; columns not named are left-aligned. */
  align?: readonly Align[];
  /** A line of dashes under the header row. */
  rule?: boolean;
}

/** Width on screen: code points, so that ✓ or — count as one. */
const width = (s: string): number => [...s].length;

const pad = (s: string, w: number, align: Align): string => {
  const fill = ' '.repeat(Math.max(0, w - width(s)));
  return align === 'right' ? fill + s : s + fill;
};

/**
 * Columns two spaces apart, each as wide as its widest cell (a missing cell is empty); no trailing spaces; ends
 * with a newline. The header is the first row.
 */
export function textTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  opts: TextTableOptions = {},
): string {
  const widths = header.map((h, i) => Math.max(width(h), ...rows.map((r) => width(r[i] ?? ''))));
  const line = (cells: readonly string[]): string =>
    widths
      .map((w, i) => pad(cells[i] ?? '', w, opts.align?.[i] ?? 'left'))
      .join('  ')
      .trimEnd();
  const out = [line(header)];
  if (opts.rule) out.push(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) out.push(line(r));
  return out.join('\n') + '\n';
}

/** A markdown cell: `|` escaped, newlines folded, at most `max` characters. */
export function markdownCell(s: string, max = Infinity): string {
  return s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ').slice(0, max);
}

/**
 * A GitHub markdown table: the header row, the separator (`|---|`), one line per row (a missing cell is empty). Cells
 * are written as given: pass them through markdownCell when they hold text from elsewhere.
 */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]): string => `| ${header.map((_, i) => cells[i] ?? '').join(' | ')} |`;
  return [line(header), `|${header.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n') + '\n';
}
