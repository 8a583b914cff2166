// Reading the judge's reply: JSON, JSON in prose, fenced JSON; schema check; the retry message. Pure.
import { validate } from '../schema/schema.js';
import type { JudgeReply } from '../schema/types.generated.js';

export type ReplyCheck =
  | { ok: true; reply: JudgeReply }
  | { ok: false; reason: 'invalid_json' | 'schema_invalid'; errors: string[] };

/** Every balanced {...} span of the text, outermost first, strings respected. */
function objectSpans(text: string): string[] {
  const spans: string[] = [];
  for (let start = text.indexOf('{'); start !== -1 && spans.length < 20; start = text.indexOf('{', start + 1)) {
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === '\\') i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{') depth++;
      else if (c === '}' && --depth === 0) {
        spans.push(text.slice(start, i + 1));
        break;
      }
    }
  }
  return spans;
}

/** JSON objects the text may hold, most likely first: the whole text, fenced blocks, then balanced spans. */
export function jsonCandidates(text: string): unknown[] {
  const out: unknown[] = [];
  const tryParse = (s: string): void => {
    try {
      const v: unknown = JSON.parse(s);
      if (typeof v === 'object' && v !== null && !Array.isArray(v)) out.push(v);
    } catch {
      /* not JSON */
    }
  };
  tryParse(text.trim());
  for (const m of text.matchAll(/```(?:json|JSON)?[ \t]*\n([\s\S]*?)```/g)) tryParse(m[1]!.trim());
  for (const s of objectSpans(text)) tryParse(s);
  return out;
}

/** Validates an already-parsed value (claude's structured_output) against the reply schema. */
export function checkReplyValue(value: unknown): ReplyCheck {
  const v = validate<JudgeReply>('judge-reply', value);
  return v.ok ? { ok: true, reply: v.value } : { ok: false, reason: 'schema_invalid', errors: v.errors };
}

/** The first candidate that passes the schema; else the errors of the first JSON found; else invalid_json. */
export function checkReplyText(text: string): ReplyCheck {
  const candidates = jsonCandidates(text);
  if (candidates.length === 0) return { ok: false, reason: 'invalid_json', errors: ['the reply holds no JSON object'] };
  let first: ReplyCheck | undefined;
  for (const c of candidates) {
    const r = checkReplyValue(c);
    if (r.ok) return r;
    first ??= r;
  }
  return first!;
}

/** The one retry: quotes what was wrong so the model can fix exactly that. */
export function retryMessage(check: Extract<ReplyCheck, { ok: false }>): string {
  const what = check.reason === 'invalid_json' ? 'was not a JSON object' : 'did not match the required schema';
  return `Your previous reply ${what}:\n${check.errors.map((e) => `- ${e}`).join('\n')}\nReply again with only the corrected JSON object: no prose, no code fence. Scores are numbers from 0 to 1; verdict is one of pass, partial, fail; all four dimensions are required.`;
}

const UNSUPPORTED = new Set([
  '$schema',
  '$id',
  'title',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'format',
]);

/**
 * The reply schema as sent to the API (output_config.format) and to claude --json-schema: references
 * inlined, and keywords structured outputs do not take dropped (ranges stay in descriptions; ajv checks them).
 */
export function apiReplySchema(schema: Record<string, unknown>): Record<string, unknown> {
  const defs = (schema.definitions ?? {}) as Record<string, unknown>;
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (typeof node !== 'object' || node === null) return node;
    const obj = node as Record<string, unknown>;
    if (typeof obj.$ref === 'string') {
      const name = obj.$ref.replace('#/definitions/', '');
      return walk(defs[name]);
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obj)) {
      if (UNSUPPORTED.has(k) || k === 'definitions') continue;
      out[k] =
        k === 'properties'
          ? Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([pk, pv]) => [pk, walk(pv)]))
          : walk(v);
    }
    return out;
  };
  return walk(schema) as Record<string, unknown>;
}
