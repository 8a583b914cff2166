// Claude Code hook input and transcript, read into run-record facts (pure: text in, facts out).
import { UserError } from '../base/errors.js';

/** The fields of a Claude Code hook's JSON on stdin that bin/record uses (Stop, SubagentStop, SessionEnd). */
export interface ClaudeHookInput {
  session_id: string;
  cwd: string;
  transcript_path: string | null;
  hook_event_name: string | null;
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}

/** Parses the hook's stdin; a missing session_id or cwd is one clear error. */
export function parseClaudeHookInput(text: string): ClaudeHookInput {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new UserError(`--claude-hook: stdin is not the hook's JSON (${(e as Error).message})`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new UserError('--claude-hook: stdin is not a JSON object');
  const o = data as Record<string, unknown>;
  const session = str(o.session_id);
  const cwd = str(o.cwd);
  if (!session) throw new UserError('--claude-hook: /session_id: missing in the hook input');
  if (!cwd) throw new UserError('--claude-hook: /cwd: missing in the hook input');
  return { session_id: session, cwd, transcript_path: str(o.transcript_path), hook_event_name: str(o.hook_event_name) };
}

/** What a session transcript tells about the run. Every field may be missing. */
export interface TranscriptFacts {
  /** The first prompt the user typed (not a tool result, not a command's meta message). */
  prompt?: string;
  /** The model of the last assistant message. */
  model?: string;
  /** The first entry's time (ISO). */
  started_at?: string;
  /** The last entry's time (ISO). */
  completed_at?: string;
  /** Tokens summed over distinct assistant messages: input includes cache writes and reads. */
  usage?: { input_tokens: number; output_tokens: number; total_tokens: number };
  /** Lines that were not JSON (a transcript cut while being written). */
  bad_lines: number;
}

type Entry = {
  type?: unknown;
  timestamp?: unknown;
  isMeta?: unknown;
  isSidechain?: unknown;
  message?: { id?: unknown; role?: unknown; model?: unknown; content?: unknown; usage?: Record<string, unknown> };
};

function textOf(content: unknown): string | null {
  if (typeof content === 'string') return content.trim() === '' ? null : content;
  if (!Array.isArray(content)) return null;
  // A user entry made only of tool results is the harness answering, not the user asking.
  const texts = content
    .filter((b) => b && typeof b === 'object' && (b as { type?: unknown }).type === 'text')
    .map((b) => String((b as { text?: unknown }).text ?? ''));
  const joined = texts.join('\n').trim();
  return joined === '' ? null : joined;
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.round(v) : 0);

/** Reads a Claude Code session transcript (JSONL). */
export function summarizeTranscript(text: string): TranscriptFacts {
  const facts: TranscriptFacts = { bad_lines: 0 };
  const seen = new Set<string>();
  let input = 0;
  let output = 0;
  let counted = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let e: Entry;
    try {
      e = JSON.parse(line) as Entry;
    } catch {
      facts.bad_lines++;
      continue;
    }
    if (typeof e !== 'object' || e === null) continue;
    const ts =
      typeof e.timestamp === 'string' && !Number.isNaN(Date.parse(e.timestamp))
        ? new Date(e.timestamp).toISOString()
        : undefined;
    if (ts) {
      facts.started_at ??= ts;
      facts.completed_at = ts;
    }
    if (e.isSidechain === true) continue;
    const m = e.message;
    if (e.type === 'user' && facts.prompt === undefined && e.isMeta !== true && m) {
      const t = textOf(m.content);
      // Slash-command wrappers and local command output are not what the user asked.
      if (t !== null && !/^<(command-|local-command-)/.test(t.trimStart())) facts.prompt = t;
    }
    if (e.type === 'assistant' && m) {
      if (typeof m.model === 'string' && m.model !== '' && m.model !== '<synthetic>') facts.model = m.model;
      // One API message is logged once per content block, each line carrying the same usage: count it once.
      const id = typeof m.id === 'string' ? m.id : null;
      if (m.usage && (id === null || !seen.has(id))) {
        if (id !== null) seen.add(id);
        const u = m.usage;
        input += num(u.input_tokens) + num(u.cache_creation_input_tokens) + num(u.cache_read_input_tokens);
        output += num(u.output_tokens);
        counted++;
      }
    }
  }
  if (counted > 0) facts.usage = { input_tokens: input, output_tokens: output, total_tokens: input + output };
  return facts;
}
