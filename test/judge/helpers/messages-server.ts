// A loopback HTTP server that speaks enough of the Messages API for the real SDK, scripted per test.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Step =
  | {
      kind: 'reply';
      text: string;
      stop_reason?: string;
      usage?: Partial<
        Record<'input_tokens' | 'output_tokens' | 'cache_creation_input_tokens' | 'cache_read_input_tokens', number>
      >;
      delayMs?: number;
      content?: unknown[];
    }
  | { kind: 'status'; status: number; errorType: string; headers?: Record<string, string> }
  | { kind: 'reset' }
  /** Headers and half the reply body sent, then the connection is destroyed (a reset mid-reply). */
  | { kind: 'reset-mid' }
  /** The server closes the socket cleanly without a reply (node's "socket hang up"). */
  | { kind: 'hangup' }
  | { kind: 'hang'; ms: number };

export interface Recorded {
  /** The request body exactly as it arrived (the serialised request). */
  raw: string;
  body: Record<string, unknown>;
  headers: IncomingMessage['headers'];
}

/** How the loopback batch answers one item in its results (JSONL line). */
export type BatchItem =
  | { kind: 'succeeded'; text?: string }
  | { kind: 'errored'; errorType: string }
  | { kind: 'expired' }
  | { kind: 'canceled' };

/** The Message Batches side: every create recorded; a batch ends after `pollsBeforeEnd` looks unless held. */
export interface BatchSettings {
  creates: Recorded[];
  /** Status looks answered in_progress before ended. */
  pollsBeforeEnd: number;
  /** While true every batch stays in_progress (a test kills the drain meanwhile). */
  hold: boolean;
  /** Each item's result by custom_id and position; a good reply when absent. */
  item?: (customId: string, index: number) => BatchItem;
  /** Status looks answered so far. */
  retrieves: number;
  /** Results downloads answered so far. */
  resultsServed: number;
}

export interface MessagesServer {
  url: string;
  requests: Recorded[];
  batch: BatchSettings;
  /** Steps answered in order; when empty, `fallback` answers. */
  script: Step[];
  /** Consulted first: a step for a request by its body (e.g. the race's judge questions by their system prompt). */
  route?: (body: Record<string, unknown>) => Step | undefined;
  fallback: Step;
  /** The most message requests answered at once so far (the concurrency limit's witness). */
  readonly maxInFlight: number;
  close(): Promise<void>;
}

export const goodReply = (over: Record<string, unknown> = {}): string =>
  JSON.stringify({
    verdict: 'pass',
    score: 0.86,
    dimensions: { correctness: 0.9, scope_adherence: 0.8, code_quality: 0.8, completeness: 0.9 },
    issues: [{ severity: 'minor', description: 'src/add.ts: no test for negative numbers', category: 'edge_cases' }],
    summary: 'Implements add as asked with a focused test.',
    confidence: 'high',
    ...over,
  });

function answer(step: Step, req: IncomingMessage, res: ServerResponse, body: Record<string, unknown>): void {
  if (step.kind === 'reset') {
    req.socket.destroy();
    return;
  }
  if (step.kind === 'reset-mid') {
    const whole = JSON.stringify({
      id: 'msg_test',
      type: 'message',
      role: 'assistant',
      model: body.model,
      content: [{ type: 'text', text: goodReply() }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 1, output_tokens: 1 },
    });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(whole)) });
    res.write(whole.slice(0, Math.floor(whole.length / 2)), () => setTimeout(() => req.socket.destroy(), 5));
    return;
  }
  if (step.kind === 'hangup') {
    req.socket.end();
    return;
  }
  if (step.kind === 'hang') {
    const t = setTimeout(() => res.destroyed || res.end(), step.ms);
    res.on('close', () => clearTimeout(t));
    return;
  }
  if (step.kind === 'status') {
    res.writeHead(step.status, { 'content-type': 'application/json', ...step.headers });
    res.end(JSON.stringify({ type: 'error', error: { type: step.errorType, message: `scripted ${step.status}` } }));
    return;
  }
  const send = (): void => {
    if (res.destroyed) return;
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_test' });
    res.end(
      JSON.stringify({
        id: 'msg_test',
        type: 'message',
        role: 'assistant',
        model: body.model,
        content: step.content ?? (step.text === '' ? [] : [{ type: 'text', text: step.text }]),
        stop_reason: step.stop_reason ?? 'end_turn',
        stop_sequence: null,
        stop_details: step.stop_reason === 'refusal' ? { type: 'refusal', category: null, explanation: null } : null,
        usage: {
          input_tokens: 1200,
          output_tokens: 300,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          ...step.usage,
        },
      }),
    );
  };
  if (step.delayMs) {
    const t = setTimeout(send, step.delayMs);
    res.on('close', () => clearTimeout(t));
  } else send();
}

interface BatchRequest {
  custom_id: string;
  params: Record<string, unknown>;
}

function batchJson(url: string, id: string, ended: boolean, n: number): string {
  return JSON.stringify({
    id,
    type: 'message_batch',
    processing_status: ended ? 'ended' : 'in_progress',
    request_counts: { processing: ended ? 0 : n, succeeded: ended ? n : 0, errored: 0, canceled: 0, expired: 0 },
    created_at: '2026-01-01T00:00:00Z',
    expires_at: '2026-01-02T00:00:00Z',
    ended_at: ended ? '2026-01-01T01:00:00Z' : null,
    cancel_initiated_at: null,
    archived_at: null,
    results_url: ended ? `${url}/v1/messages/batches/${id}/results` : null,
  });
}

function resultLine(r: BatchRequest, item: BatchItem): string {
  const result =
    item.kind === 'succeeded'
      ? {
          type: 'succeeded',
          message: {
            id: `msg_${r.custom_id}`,
            type: 'message',
            role: 'assistant',
            model: r.params.model,
            content: [{ type: 'text', text: item.text ?? goodReply() }],
            stop_reason: 'end_turn',
            stop_sequence: null,
            usage: {
              input_tokens: 1200,
              output_tokens: 300,
              cache_creation_input_tokens: 0,
              cache_read_input_tokens: 0,
            },
          },
        }
      : item.kind === 'errored'
        ? {
            type: 'errored',
            error: {
              type: 'error',
              error: { type: item.errorType, message: `scripted ${item.errorType}` },
              request_id: null,
            },
          }
        : { type: item.kind };
  return JSON.stringify({ custom_id: r.custom_id, result });
}

/** POST /v1/messages/batches, GET /v1/messages/batches/{id} and GET …/{id}/results; false for any other path. */
function answerBatch(
  req: IncomingMessage,
  res: ServerResponse,
  raw: string,
  settings: BatchSettings,
  batches: Map<string, { requests: BatchRequest[]; polls: number }>,
  url: string,
): boolean {
  const path = (req.url ?? '').split('?')[0]!;
  if (req.method === 'POST' && path === '/v1/messages/batches') {
    const body = JSON.parse(raw) as { requests: BatchRequest[] };
    settings.creates.push({ raw, body, headers: req.headers });
    const id = `msgbatch_${batches.size + 1}`;
    batches.set(id, { requests: body.requests, polls: 0 });
    res.writeHead(200, { 'content-type': 'application/json' }).end(batchJson(url, id, false, body.requests.length));
    return true;
  }
  const m = /^\/v1\/messages\/batches\/([^/]+)(\/results)?$/.exec(path);
  if (req.method !== 'GET' || !m) return false;
  const b = batches.get(m[1]!);
  if (!b) {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'no such batch' } }));
    return true;
  }
  if (m[2]) {
    settings.resultsServed++;
    const lines = b.requests.map((r, i) => resultLine(r, settings.item?.(r.custom_id, i) ?? { kind: 'succeeded' }));
    res.writeHead(200, { 'content-type': 'application/binary' }).end(lines.join('\n') + '\n');
    return true;
  }
  settings.retrieves++;
  const ended = !settings.hold && b.polls++ >= settings.pollsBeforeEnd;
  res.writeHead(200, { 'content-type': 'application/json' }).end(batchJson(url, m[1]!, ended, b.requests.length));
  return true;
}

export async function startMessagesServer(
  fallback: Step = { kind: 'reply', text: goodReply() },
): Promise<MessagesServer> {
  const state = { requests: [] as Recorded[], script: [] as Step[], fallback, inFlight: 0, maxInFlight: 0 };
  const batch: BatchSettings = { creates: [], pollsBeforeEnd: 1, hold: false, retrieves: 0, resultsServed: 0 };
  const batches = new Map<string, { requests: BatchRequest[]; polls: number }>();
  let url = '';
  let routed: MessagesServer['route'];
  const server: Server = createServer((req, res) => {
    state.inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    res.on('close', () => state.inFlight--);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (answerBatch(req, res, Buffer.concat(chunks).toString('utf8'), batch, batches, url)) return;
      if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages')) {
        res.writeHead(404).end();
        return;
      }
      const raw = Buffer.concat(chunks).toString('utf8');
      const body = JSON.parse(raw) as Record<string, unknown>;
      state.requests.push({ raw, body, headers: req.headers });
      answer(routed?.(body) ?? state.script.shift() ?? state.fallback, req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  url = `http://127.0.0.1:${port}`;
  return {
    url,
    batch,
    get requests() {
      return state.requests;
    },
    get script() {
      return state.script;
    },
    set script(s: Step[]) {
      state.script = s;
    },
    get fallback() {
      return state.fallback;
    },
    get route() {
      return routed;
    },
    set route(f: MessagesServer['route']) {
      routed = f;
    },
    get maxInFlight() {
      return state.maxInFlight;
    },
    set fallback(s: Step) {
      state.fallback = s;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Back to a fresh script: no recorded requests, no steps, a good reply as the fallback. */
export function resetServer(server: MessagesServer): void {
  server.requests.length = 0;
  server.script = [];
  server.fallback = { kind: 'reply', text: goodReply() };
  Object.assign(server.batch, { pollsBeforeEnd: 1, hold: false, item: undefined, retrieves: 0, resultsServed: 0 });
  server.batch.creates.length = 0;
}
