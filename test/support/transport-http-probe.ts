import { request, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';

/** A raw HTTP exchange's outcome. */
export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

/** What `rawRequest` sends. Headers are sent exactly as given (including `Host`). */
export interface RawRequest {
  readonly method?: string;
  readonly path?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string | Buffer;
  /**
   * The local address the connection leaves from (another loopback address, such as `127.0.0.2`,
   * plays another client).
   */
  readonly localAddress?: string;
}

/** Headers a well-behaved MCP client sends on a POST. */
export const POST_HEADERS: Readonly<Record<string, string>> = {
  accept: 'application/json, text/event-stream',
  'content-type': 'application/json',
};

/** The `initialize` request body used by the probes. */
export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1.0.0' } },
});

/** Starts a raw request against `port` on 127.0.0.1 and resolves the response head. */
export function openRequest(port: number, spec: RawRequest): { response: Promise<IncomingMessage>; destroy(): void } {
  const req = request({
    host: '127.0.0.1',
    port,
    method: spec.method ?? 'POST',
    path: spec.path ?? '/mcp',
    headers: { host: `127.0.0.1:${port}`, ...spec.headers },
    ...(spec.localAddress === undefined ? {} : { localAddress: spec.localAddress }),
  });
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    req.on('response', resolve);
    req.on('error', reject);
  });
  req.end(spec.body);
  return { response, destroy: () => req.destroy() };
}

/** Sends a raw request and resolves status, headers and the whole body text. */
export async function rawRequest(port: number, spec: RawRequest): Promise<RawResponse> {
  const res = await openRequest(port, spec).response;
  return { status: res.statusCode ?? 0, headers: res.headers, text: await readAll(res) };
}

/** Reads a response to its end. */
export function readAll(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (text += chunk));
    res.on('end', () => resolve(text));
    res.on('error', reject);
  });
}

/** Initializes a session with a raw POST and returns its id (asserting a 200). */
export async function initSession(port: number, headers: Record<string, string> = {}): Promise<string> {
  const res = await rawRequest(port, { headers: { ...POST_HEADERS, ...headers }, body: INITIALIZE });
  const id = res.headers['mcp-session-id'];
  if (res.status !== 200 || typeof id !== 'string') throw new Error(`initialize failed: ${res.status} ${res.text}`);
  return id;
}

/**
 * The JSON-RPC messages of an answer, by its `Content-Type`: an event stream's `data:` lines
 * (see `sseMessages`), or a JSON body's message (a batch answer's messages); none for an empty
 * body. Throws for any other content type, so a test never reads an answer it did not expect.
 */
export function answerMessages(res: RawResponse): unknown[] {
  const type = res.headers['content-type'] ?? '';
  if (type.startsWith('text/event-stream')) return sseMessages(res.text);
  if (res.text === '') return [];
  if (!type.startsWith('application/json')) throw new Error(`unexpected Content-Type ${type}: ${res.text}`);
  const value = JSON.parse(res.text) as unknown;
  return Array.isArray(value) ? value : [value];
}

/** The JSON-RPC messages carried by the `data:` lines of an SSE body. */
export function sseMessages(text: string): unknown[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice('data: '.length)) as unknown);
}

/** Resolves when `check()` returns true, re-checking on each `notify()`; rejects after `limitMs`. */
export class Signal {
  private readonly waiters = new Set<() => void>();
  readonly events: string[] = [];

  /** Records an event and wakes the waiters. */
  readonly push = (event: string): void => {
    this.events.push(event);
    for (const w of [...this.waiters]) w();
  };

  /** Resolves once `event` has been recorded. */
  waitFor(event: string, limitMs = 15_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        if (!this.events.includes(event)) return;
        this.waiters.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`timed out waiting for ${event}; saw ${JSON.stringify(this.events)}`));
      }, limitMs);
      this.waiters.add(check);
      check();
    });
  }
}
