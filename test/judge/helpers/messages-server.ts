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

export interface MessagesServer {
  url: string;
  requests: Recorded[];
  /** Steps answered in order; when empty, `fallback` answers. */
  script: Step[];
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

export async function startMessagesServer(
  fallback: Step = { kind: 'reply', text: goodReply() },
): Promise<MessagesServer> {
  const state = { requests: [] as Recorded[], script: [] as Step[], fallback, inFlight: 0, maxInFlight: 0 };
  const server: Server = createServer((req, res) => {
    state.inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    res.on('close', () => state.inFlight--);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages')) {
        res.writeHead(404).end();
        return;
      }
      const raw = Buffer.concat(chunks).toString('utf8');
      const body = JSON.parse(raw) as Record<string, unknown>;
      state.requests.push({ raw, body, headers: req.headers });
      answer(state.script.shift() ?? state.fallback, req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
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
}
