import type { IncomingMessage } from 'node:http';
import { BlockList, isIP, isIPv4 } from 'node:net';
import { kindOf } from '../../../util/describe.js';

/** Which request header carries the client address a trusted proxy forwards. */
export type ForwardedHeader = 'x-forwarded-for' | 'forwarded';

/**
 * Where the HTTP edge may learn a client's address from a proxy in front of it (the
 * `forwarded` option of `createHttpHandler`). Without it, a client's address is the direct
 * peer's, whatever headers it sends.
 */
export interface ForwardedOptions {
  /**
   * The proxies (balancers) whose forwarded header is believed: IP addresses (`10.0.0.7`,
   * `::1`) or CIDR ranges (`10.0.0.0/8`, `fd00::/8`). At least one. A request whose direct
   * peer is not among them counts as coming from that peer.
   */
  readonly trustedProxies: readonly string[];
  /**
   * The header the proxies write: `'x-forwarded-for'` (the default: HAProxy's `option
   * forwardfor`, nginx's `$proxy_add_x_forwarded_for`, cloud balancers) or `'forwarded'`
   * (RFC 7239 `for=`). Only this one is read: a client could send the other one itself, and a
   * proxy that does not touch it would pass it on unchanged.
   */
  readonly header?: ForwardedHeader;
}

/** How a request's client address is found (see `clientAddressOf`). */
export interface AddressRule {
  readonly trusted: BlockList | undefined;
  readonly header: ForwardedHeader;
}

const FORWARDED_KEYS = new Set(['trustedProxies', 'header']);
const CIDR = /^(.+)\/(\d{1,3})$/;

/**
 * Checks the `forwarded` option and builds the rule `clientAddressOf` follows. Throws a
 * `TypeError` naming the problem: `forwarded must be an object { trustedProxies, header? }, got
 * a string`, `forwarded: unknown option "proxies" (known options: trustedProxies, header)`,
 * `forwarded.trustedProxies must be a non-empty array of IP addresses or CIDR ranges`,
 * `forwarded.trustedProxies[1] must be an IP address or a CIDR range such as 10.0.0.0/8, got
 * "balancer"`, `forwarded.header must be "x-forwarded-for" or "forwarded", got "x-real-ip"`.
 * `undefined` gives the rule of no proxy (the direct peer is the client).
 */
export function resolveForwarded(options: ForwardedOptions | undefined): AddressRule {
  if (options === undefined) return { trusted: undefined, header: 'x-forwarded-for' };
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new TypeError(`forwarded must be an object { trustedProxies, header? }, got ${kindOf(options)}`);
  for (const key of Object.keys(options)) {
    if (!FORWARDED_KEYS.has(key))
      throw new TypeError(
        `forwarded: unknown option ${JSON.stringify(key)} (known options: ${[...FORWARDED_KEYS].join(', ')})`,
      );
  }
  const { trustedProxies, header = 'x-forwarded-for' } = options;
  if (!Array.isArray(trustedProxies) || trustedProxies.length === 0)
    throw new TypeError('forwarded.trustedProxies must be a non-empty array of IP addresses or CIDR ranges');
  const trusted = new BlockList();
  trustedProxies.forEach((entry: unknown, index) => {
    if (!addTrusted(trusted, entry))
      throw new TypeError(
        `forwarded.trustedProxies[${index}] must be an IP address or a CIDR range such as 10.0.0.0/8, got ${shown(entry)}`,
      );
  });
  if (header !== 'x-forwarded-for' && header !== 'forwarded')
    throw new TypeError(`forwarded.header must be "x-forwarded-for" or "forwarded", got ${shown(header)}`);
  return { trusted, header };
}

/** A bad option value as a refusal shows it: a string as JSON, anything else by its kind. */
function shown(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : kindOf(value);
}

/** Adds one `trustedProxies` entry to `list`; false when it is neither an address nor a CIDR range. */
function addTrusted(list: BlockList, entry: unknown): boolean {
  if (typeof entry !== 'string') return false;
  const cidr = CIDR.exec(entry);
  const address = cidr === null ? entry : cidr[1]!;
  const family = isIP(address);
  if (family === 0) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (cidr === null) {
    list.addAddress(address, type);
    return true;
  }
  const prefix = Number(cidr[2]);
  if (prefix > (family === 4 ? 32 : 128)) return false;
  list.addSubnet(address, prefix, type);
  return true;
}

/**
 * The address a request counts against for `maxSessionsPerAddress` and the parked-call bound:
 * the direct peer's, unless the peer is a trusted proxy (`rule.trusted`); then the forwarded
 * header is read from the right (the entry the nearest proxy wrote) to the left, skipping
 * trusted proxies, and the first entry that is not one is the client. An entry that is not an IP
 * address (`unknown`, an RFC 7239 obfuscated name, garbage) ends the walk at the proxy that wrote
 * it; a header of trusted proxies only gives its left-most one; a trusted peer that sent no
 * header is the client itself. So what a client writes into the header itself is never read
 * unless every hop after it is trusted. IPv4-mapped IPv6 addresses count as IPv4; an IPv6 address
 * zone (`%eth0`) and a port are dropped. `unknown` when the peer's address is not known (the
 * socket is gone).
 */
export function clientAddressOf(req: IncomingMessage, rule: AddressRule): string {
  const peer = normalAddress(req.socket.remoteAddress ?? '');
  if (peer === undefined) return 'unknown';
  if (rule.trusted === undefined || !isTrusted(rule.trusted, peer)) return peer;
  const raw = req.headers[rule.header];
  const text = Array.isArray(raw) ? raw.join(',') : (raw ?? '');
  const hops = rule.header === 'forwarded' ? forwardedFors(text) : text.split(',');
  let client = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalAddress(hops[i]!.trim());
    if (hop === undefined) return client;
    client = hop;
    if (!isTrusted(rule.trusted, hop)) return hop;
  }
  return client;
}

/**
 * The key an address counts under: an IPv4 address as it is, an IPv6 address by its /64 prefix in
 * its shortest form (`2001:db8:0:1::/64`, `::/64` for `::1`), since one end site usually holds a
 * whole /64 and could otherwise take a fresh quota with every address of it.
 */
export function addressKey(address: string): string {
  if (!address.includes(':')) return address;
  const groups = ipv6Groups(address);
  if (groups === undefined) return address;
  const prefix = `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::`;
  // The URL parser writes IPv6 in its canonical, shortest form (`2001:db8::`, `::`).
  return `${new URL(`http://[${prefix}]/`).hostname.slice(1, -1)}/64`;
}

function isTrusted(list: BlockList, address: string): boolean {
  return list.check(address, isIPv4(address) ? 'ipv4' : 'ipv6');
}

/**
 * An address as the edge compares it, or `undefined` when `text` is none: brackets, a port and
 * a zone are dropped, IPv4-mapped IPv6 becomes IPv4, IPv6 is lower-cased.
 */
function normalAddress(text: string): string | undefined {
  let address = text;
  if (address.startsWith('"') && address.endsWith('"') && address.length >= 2) address = address.slice(1, -1);
  if (address.startsWith('[')) {
    const end = address.indexOf(']');
    if (end === -1) return undefined;
    address = address.slice(1, end);
  } else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(address)) {
    address = address.slice(0, address.lastIndexOf(':'));
  }
  const zone = address.indexOf('%');
  if (zone !== -1) address = address.slice(0, zone);
  const family = isIP(address);
  if (family === 4) return address;
  if (family !== 6) return undefined;
  const groups = ipv6Groups(address.toLowerCase());
  if (groups === undefined) return undefined;
  // An IPv4-mapped address (::ffff:a.b.c.d, in any spelling) is that IPv4 address.
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff)
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  return address.toLowerCase();
}

/** The eight 16-bit groups of a valid IPv6 address (an embedded IPv4 tail counts as two). */
function ipv6Groups(address: string): number[] | undefined {
  let text = address;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4 !== null) {
    const [a, b, c, d] = v4[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const part = (s: string | undefined): string[] => (s === undefined || s === '' ? [] : s.split(':'));
  const left = part(head);
  const right = part(tail);
  const groups =
    tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  if (groups.length !== 8) return undefined;
  return groups.map((group) => Number.parseInt(group, 16));
}

/** The `for=` values of an RFC 7239 `Forwarded` header, in order (an element without one gives `""`). */
function forwardedFors(text: string): string[] {
  const values: string[] = [];
  for (const element of splitOutsideQuotes(text, ',')) {
    let value = '';
    for (const pair of splitOutsideQuotes(element, ';')) {
      const eq = pair.indexOf('=');
      if (eq !== -1 && pair.slice(0, eq).trim().toLowerCase() === 'for') value = pair.slice(eq + 1).trim();
    }
    values.push(value);
  }
  return values;
}

/** Splits `text` at `separator`, except inside double-quoted strings. */
function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '\\' && quoted && i + 1 < text.length) {
      current += char + text[++i]!;
      continue;
    }
    if (char === '"') quoted = !quoted;
    if (char === separator && !quoted) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts;
}
