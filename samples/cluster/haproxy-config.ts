/** One toolwright process behind the balancer. */
export interface Backend {
  /** The server's name in the configuration (`[A-Za-z0-9_-]`, unique). */
  readonly name: string;
  /** Its host; default `127.0.0.1`. */
  readonly host?: string;
  readonly port: number;
}

/** What `haproxyConfig` writes. */
export interface HaproxyConfigOptions {
  /** The address clients connect to; default `127.0.0.1`. */
  readonly host?: string;
  readonly port: number;
  readonly backends: readonly Backend[];
  /**
   * How often each backend's port is checked, in milliseconds; default 1000. Two failed checks in
   * a row mark it down, one success up; a check may take up to the longer of this and 1 s.
   */
  readonly checkIntervalMs?: number;
}

const NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The HAProxy configuration of a toolwright cluster (HAProxy 2.4 or newer), as text:
 *
 * - HTTP mode, `balance roundrobin`: every request is balanced on its own, so 2026-07-28-era
 *   calls (stateless, no session) spread over the processes.
 * - Sticky 2025-era sessions: the `Mcp-Session-Id` a process answers an `initialize` with is
 *   stored in a stick table (`stick store-response`), and every later request carrying it is sent
 *   to that process (`stick match`). Entries expire after 30 minutes without use, as toolwright's
 *   own idle sessions do.
 * - Health checks: each backend's port is checked every `checkIntervalMs`; a dead process is
 *   skipped after two failed checks (one slow check on a busy machine takes nobody out). A
 *   request whose connection is refused is retried on another process (`option redispatch 1`),
 *   so a session whose process died reaches a live one, which answers `404 Session not found`
 *   and the client initialises again. A request already sent to a process that dies mid-call is
 *   never re-sent (HAProxy retries only connection failures); the client gets `502`.
 * - Long calls: client and server timeouts of 10 minutes (an SSE stream is quiet while a tool runs).
 *
 * Throws a `TypeError` naming the problem for a bad port, an empty backend list, or a bad or
 * duplicate backend name.
 */
export function haproxyConfig(options: HaproxyConfigOptions): string {
  if (!isPort(options.port))
    throw new TypeError(`haproxy port must be an integer from 1 to 65535, got ${String(options.port)}`);
  if (options.backends.length === 0) throw new TypeError('haproxy needs at least one backend');
  const names = new Set<string>();
  for (const backend of options.backends) {
    if (!NAME.test(backend.name) || names.has(backend.name))
      throw new TypeError(
        `haproxy backend names must be unique and 1 to 64 of A-Za-z0-9_-, got ${JSON.stringify(backend.name)}`,
      );
    if (!isPort(backend.port))
      throw new TypeError(
        `haproxy backend ${backend.name}: port must be an integer from 1 to 65535, got ${String(backend.port)}`,
      );
    names.add(backend.name);
  }
  const inter = options.checkIntervalMs ?? 1000;
  const servers = options.backends.map(
    (b) => `  server ${b.name} ${b.host ?? '127.0.0.1'}:${b.port} check inter ${inter}ms fall 2 rise 1`,
  );
  return [
    'global',
    '  maxconn 4000',
    '',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 10m',
    '  timeout server 10m',
    '  timeout http-keep-alive 60s',
    `  timeout check ${Math.max(inter, 1000)}ms`,
    '  retries 2',
    '  option redispatch 1',
    '',
    'frontend mcp',
    `  bind ${options.host ?? '127.0.0.1'}:${options.port}`,
    '  default_backend toolwright',
    '',
    'backend toolwright',
    '  balance roundrobin',
    '  stick-table type string len 64 size 1m expire 30m',
    '  stick match req.hdr(mcp-session-id)',
    '  stick store-response res.hdr(mcp-session-id)',
    ...servers,
    '',
  ].join('\n');
}

function isPort(port: unknown): port is number {
  return Number.isInteger(port) && (port as number) >= 1 && (port as number) <= 65535;
}
