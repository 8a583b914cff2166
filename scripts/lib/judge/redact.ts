// Redaction of what leaves the machine, through the one secret matcher (pure: the table is passed in).
import { mergeRedactions, redactSecrets, type Redaction } from '../secrets/match.js';
import type { SecretTable } from '../secrets/table.js';
import type { CallRequest } from './backend.js';

export type { Redaction };
export { mergeRedactions };

export interface RedactionCount {
  count: number;
  kinds: Record<string, number>;
}

/** One text with every secret replaced by [REDACTED:<rule>]. */
export const redactText = (text: string, table: SecretTable): Redaction => redactSecrets(text, table);

/**
 * The last step before a request is sent: every string in it (system prompt, every message) goes through the
 * matcher, whatever assembled it. What the parts' own redaction missed (text git prints after a hunk header,
 * a file list, a file name, a key cut by the budget) is caught here.
 */
export function redactRequest(req: CallRequest, table: SecretTable): { request: CallRequest; redacted: RedactionCount } {
  const redacted: RedactionCount = { count: 0, kinds: {} };
  const clean = (text: string): string => {
    const r = redactSecrets(text, table);
    mergeRedactions(redacted, r);
    return r.text;
  };
  const request: CallRequest = { ...req, system: clean(req.system), messages: req.messages.map((m) => ({ ...m, content: clean(m.content) })) };
  return { request, redacted };
}
