/** One toolwright process behind the balancer. */
export interface Backend {
  /** The server's name in the configuration (`[A-Za-z0-9_-]`, unique). */
  readonly name: string;
  /** Its host; default `127.0.0.1`. */
  readonly host?: string;
  readonly port: number;
  /**
   * The node id the process puts in front of its session ids (`<nodeId>.<random>`, see
   * `HttpHandlerOptions.nodeId`); default `name`. A request whose `Mcp-Session-Id` starts with
   * `<nodeId>.` is sent to this backend while it is up.
   */
  readonly nodeId?: string;
}

/** What `haproxyConfig` writes. */
export interface HaproxyConfigOptions {
  /** The address clients connect to; default `127.0.0.1`. */
  readonly host?: string;
  readonly port: number;
  readonly backends: readonly Backend[];
  /**
   * How often each backend's readiness (`GET /readyz`) is checked, in milliseconds; default 1000.
   * Two failed checks in a row mark it down, one success up; a check may take up to the longer of
   * this and 1 s.
   */
  readonly checkIntervalMs?: number;
  /** The readiness path the checks ask for; default `/readyz` (see `HealthOptions.readyPath`). */
  readonly readyPath?: string;
}

const NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The HAProxy configuration of a toolwright cluster (HAProxy 2.4 or newer), as text:
 *
 * - HTTP mode, `balance roundrobin`: every request is balanced on its own, so 2026-07-28-era
 *   calls (stateless, no session) spread over the processes.
 * - Sticky 2025-era sessions without a table: each process puts its node id in front of the
 *   session ids it mints (`<nodeId>.<random>`), and a request whose `Mcp-Session-Id` starts with
 *   `<nodeId>.` is sent to that process (`use-server`), so stickiness survives a balancer restart
 *   and needs no `peers` section between several balancers.
 * - Health checks on readiness: each backend is asked `GET /readyz` every `checkIntervalMs`
 *   (`option httpchk`, 200 expected); two failures in a row take it out of rotation (a frozen
 *   process whose check times out, a process draining for shutdown, which answers 503), one
 *   success brings it back. Readiness reports Redis without failing on it, so a Redis outage takes
 *   no process out. A request whose connection is refused is retried on another process (`option
 *   redispatch 1`), so a session whose process died reaches a live one, which answers
 *   `404 Session not found`: the client must then initialise a new session (an SDK client does
 *   not on its own; see docs/cluster.md). A request already sent to a process that dies
 *   mid-call is never re-sent (HAProxy retries only connection failures); the client gets `502`.
 * - `option forwardfor`: each request carries its client's address in `X-Forwarded-For`, which
 *   the processes believe from the balancer (`forwarded: { trustedProxies }`), so per-client
 *   limits count clients, not the balancer.
 * - Long calls: client and server timeouts of 10 minutes (an SSE stream is quiet while a tool runs).
 *
 * Throws a `TypeError` naming the problem for a bad port, an empty backend list, a bad or
 * duplicate backend name or node id, or a bad readiness path.
 */
export function haproxyConfig(options: HaproxyConfigOptions): string {
  if (!isPort(options.port))
    throw new TypeError(`haproxy port must be an integer from 1 to 65535, got ${String(options.port)}`);
  if (options.backends.length === 0) throw new TypeError('haproxy needs at least one backend');
  const names = new Set<string>();
  const nodeIds = new Set<string>();
  for (const backend of options.backends) {
    if (!NAME.test(backend.name) || names.has(backend.name))
      throw new TypeError(
        `haproxy backend names must be unique and 1 to 64 of A-Za-z0-9_-, got ${JSON.stringify(backend.name)}`,
      );
    const nodeId = backend.nodeId ?? backend.name;
    if (!NAME.test(nodeId) || nodeIds.has(nodeId))
      throw new TypeError(
        `haproxy backend node ids must be unique and 1 to 64 of A-Za-z0-9_-, got ${JSON.stringify(nodeId)}`,
      );
    if (!isPort(backend.port))
      throw new TypeError(
        `haproxy backend ${backend.name}: port must be an integer from 1 to 65535, got ${String(backend.port)}`,
      );
    names.add(backend.name);
    nodeIds.add(nodeId);
  }
  const readyPath = options.readyPath ?? '/readyz';
  if (!/^\/[A-Za-z0-9._~/-]*$/.test(readyPath))
    throw new TypeError(
      `haproxy readyPath must be a path of A-Za-z0-9._~/- beginning with "/", got ${JSON.stringify(readyPath)}`,
    );
  const inter = options.checkIntervalMs ?? 1000;
  const routes = options.backends.map(
    (b) => `  use-server ${b.name} if { req.hdr(mcp-session-id) -m beg ${b.nodeId ?? b.name}. }`,
  );
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
    '  option forwardfor',
    '',
    'frontend mcp',
    `  bind ${options.host ?? '127.0.0.1'}:${options.port}`,
    '  default_backend toolwright',
    '',
    'backend toolwright',
    '  balance roundrobin',
    '  option httpchk',
    `  http-check send meth GET uri ${readyPath}`,
    '  http-check expect status 200',
    ...routes,
    ...servers,
    '',
  ].join('\n');
}

function isPort(port: unknown): port is number {
  return Number.isInteger(port) && (port as number) >= 1 && (port as number) <= 65535;
}
