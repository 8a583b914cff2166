// The race header names the task by its prompt's first line, not by the whole prompt JSON-escaped.
import { describe, expect, it } from 'vitest';
import { taskHeadline } from '../../lib/race/present.js';

describe('taskHeadline', () => {
  it('is the first non-blank line, trimmed, with no quotes or escapes', () => {
    const prompt = '\n  Fix median() for "even" input.  \n\nSteps:\n1. read the tests\n';
    expect(taskHeadline(prompt, 'task-1')).toBe('Fix median() for "even" input.');
  });

  it('is cut at the limit with an ellipsis, counting characters (not UTF-16 units)', () => {
    const line = `${'é'.repeat(10)}${'x'.repeat(20)}`;
    expect(taskHeadline(line, 't', 12)).toBe(`${'é'.repeat(10)}x…`);
    expect([...taskHeadline(line, 't', 12)].length).toBe(12);
    expect(taskHeadline(line, 't', 30)).toBe(line);
  });

  it('is the task id when there is no prompt or only blank lines', () => {
    expect(taskHeadline(undefined, 'task-7')).toBe('task-7');
    expect(taskHeadline(' \n\t\n', 'task-7')).toBe('task-7');
  });
});
