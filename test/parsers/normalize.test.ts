// ANSI, CR/CRLF and progress overwrites are removed before any parser sees a line.
import { describe, expect, test } from 'vitest';
import { normalizeLines, omittedBytes, stripAnsi } from '../../lib/collector/parsers/normalize.js';

describe('normalize', () => {
  test('strips SGR, charset selection (tput sgr0) and OSC hyperlinks', () => {
    expect(stripAnsi('\u001b[1m\u001b[31mFAIL\u001b(B\u001b[m done')).toBe('FAIL done');
    expect(stripAnsi('\u001b]8;;https://x.test\u0007link\u001b]8;;\u0007 \u001b]0;title\u001b\\ok')).toBe('link ok');
    expect(stripAnsi('\u001b[2K\u001b[1Gline')).toBe('line');
  });

  test('CRLF becomes LF and a carriage return keeps what was written last', () => {
    expect(normalizeLines('a\r\nb\r\n')).toEqual(['a', 'b', '']);
    expect(normalizeLines('10%\r50%\r100% done\nnext')).toEqual(['100% done', 'next']);
    expect(normalizeLines('progress\r')).toEqual(['progress']);
  });

  test('reads the omitted-bytes marker a caller puts where it cut the output', () => {
    expect(omittedBytes(['a', '[... 123456 bytes omitted ...]', 'b'])).toBe(123456);
    expect(omittedBytes(['a', 'b'])).toBeNull();
  });
});
