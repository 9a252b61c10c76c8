/** Options of `createHostOriginGuard`. */
export interface HostOriginGuardOptions {
  /**
   * Hosts accepted besides `localhost`, `127.0.0.1` and `[::1]`, as the `Host` header names them:
   * a bare hostname (`myapp.local`, any port) or `hostname:port` (that port only). IPv6 literals
   * are written in brackets (`[::1]`).
   */
  readonly allowedHosts?: readonly string[];
  /**
   * Origins accepted besides `http(s)://` plus any allowed host (any port), as full origins
   * (`https://app.example.com`, `http://localhost:5173`).
   */
  readonly allowedOrigins?: readonly string[];
}

/** Returns `undefined` for an acceptable request, or the 403 message that refuses it. */
export type HostOriginGuard = (host: string | undefined, origin: string | undefined) => string | undefined;

const LOOPBACK_HOSTNAMES = ['localhost', '127.0.0.1', '[::1]'];

/**
 * Builds the DNS-rebinding and cross-origin guard the MCP spec asks of HTTP servers. A request
 * passes when its `Host` header names an allowed host (loopback by default, any port) and it
 * either has no `Origin` header or an `Origin` that is `http:`/`https:` on an allowed host (any
 * port) or listed in `allowedOrigins`. An `Origin` of `null` (sandboxed or `file:` pages) is
 * refused. Refusals read `Forbidden: invalid Host header: <value>`, `Forbidden: missing Host
 * header` or `Forbidden: invalid Origin header: <value>` (values cut to 200 characters).
 * Throws a `TypeError` at build time for an entry that is not a host or an origin.
 */
export function createHostOriginGuard(options: HostOriginGuardOptions = {}): HostOriginGuard {
  const hostnames = new Set<string>();
  const hostsWithPort = new Set<string>();
  for (const entry of [...LOOPBACK_HOSTNAMES, ...(options.allowedHosts ?? [])]) {
    const url = parseHost(entry);
    if (url === undefined)
      throw new TypeError(`allowedHosts: ${JSON.stringify(entry)} is not a host name or host:port`);
    if (url.port === '' && !/:\d+$/.test(entry)) hostnames.add(url.hostname);
    else hostsWithPort.add(url.host);
  }
  const origins = new Set<string>();
  for (const entry of options.allowedOrigins ?? []) {
    const origin = parseOrigin(entry);
    if (origin === undefined) throw new TypeError(`allowedOrigins: ${JSON.stringify(entry)} is not an http(s) origin`);
    origins.add(origin.origin);
  }
  const hostAllowed = (url: URL): boolean => hostnames.has(url.hostname) || hostsWithPort.has(url.host);
  const hostPasses = remembered((host) => {
    const url = parseHost(host);
    return url !== undefined && hostAllowed(url);
  });
  const originPasses = remembered((origin) => {
    const url = parseOrigin(origin);
    return url !== undefined && (hostAllowed(url) || origins.has(url.origin));
  });

  return (host, origin) => {
    if (host === undefined || host === '') return 'Forbidden: missing Host header';
    if (!hostPasses(host)) return `Forbidden: invalid Host header: ${cut(host)}`;
    if (origin === undefined) return undefined;
    if (!originPasses(origin)) return `Forbidden: invalid Origin header: ${cut(origin)}`;
    return undefined;
  };
}

/** How many header values `remembered` keeps verdicts for before it starts over. */
const REMEMBERED_VERDICTS = 256;

/**
 * `verdict`, remembered per value: a server sees a handful of `Host` and `Origin` values, and
 * parsing one as a `URL` costs more than the rest of the check. At most `REMEMBERED_VERDICTS`
 * values are kept; past that the memory is emptied (a client sending ever new values costs a
 * parse per request, never memory).
 */
function remembered(verdict: (value: string) => boolean): (value: string) => boolean {
  const known = new Map<string, boolean>();
  return (value) => {
    let passes = known.get(value);
    if (passes === undefined) {
      passes = verdict(value);
      if (known.size >= REMEMBERED_VERDICTS) known.clear();
      known.set(value, passes);
    }
    return passes;
  };
}

/** Parses a `Host` value (`name`, `name:port`, `[v6]:port`); `undefined` when it is anything more. */
function parseHost(host: string): URL | undefined {
  if (!/^[A-Za-z0-9.\-_[\]:]+$/.test(host)) return undefined;
  try {
    const url = new URL(`http://${host}`);
    return url.pathname === '/' && url.username === '' && url.search === '' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** Parses an `http:`/`https:` origin; `undefined` for `null`, other schemes or garbage. */
function parseOrigin(origin: string): URL | undefined {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

function cut(value: string): string {
  return value.length > 200 ? `${value.slice(0, 200)}...` : value;
}
