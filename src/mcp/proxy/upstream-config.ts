import { isJsonObject } from '../../contract/index.js';
import { kindOf } from '../../util/describe.js';
import type { ToolPermission } from '../client/index.js';

/** One upstream server of a proxy: a stdio command or a URL, with its name and name prefix. */
export interface ProxyUpstream {
  /** The server's name in errors and collisions; default: the command line or the URL. */
  readonly name?: string;
  readonly command?: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  readonly url?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** A bearer token for a URL upstream that requires auth (see `UrlTarget.bearerToken`). */
  readonly bearerToken?: string;
  /** Put before each of its tools' names (`files.`), so two servers' names cannot collide. */
  readonly prefix?: string;
  /** The host's explicit permission class for every tool of this server (with a policy). */
  readonly permission?: ToolPermission;
  /** Lets this server's hints classify its tools (with a policy); see `ConsumeOptions`. */
  readonly trustServerAnnotations?: boolean;
}

const KEYS: ReadonlySet<string> = new Set([
  'name',
  'command',
  'args',
  'env',
  'cwd',
  'url',
  'headers',
  'bearerToken',
  'prefix',
  'permission',
  'trustServerAnnotations',
]);

/**
 * Checks one upstream entry (from the API or a JSON config file) and returns it. Throws a
 * `TypeError` beginning `proxy: upstream <n>:` for an entry that is not an object, has an
 * unknown key, has both or neither of `command` and `url`, a `bearerToken` without `url`, or a
 * member of the wrong type.
 */
export function checkUpstream(entry: unknown, index: number): ProxyUpstream {
  const where = `proxy: upstream ${index + 1}`;
  if (!isJsonObject(entry))
    throw new TypeError(
      `${where}: must be an object like {"command": "node", "args": ["server.js"]} or {"url": "http://127.0.0.1:3000/mcp"}, got ${kindOf(entry)}`,
    );
  for (const key of Object.keys(entry))
    if (!KEYS.has(key))
      throw new TypeError(`${where}: unknown key ${JSON.stringify(key)} (known keys: ${[...KEYS].join(', ')})`);
  const hasCommand = entry.command !== undefined;
  const hasUrl = entry.url !== undefined;
  if (hasCommand === hasUrl) throw new TypeError(`${where}: give exactly one of "command" and "url"`);
  for (const key of ['name', 'command', 'cwd', 'url', 'bearerToken', 'prefix', 'permission'] as const) {
    if (entry[key] !== undefined && typeof entry[key] !== 'string')
      throw new TypeError(`${where}: "${key}" must be a string, got ${kindOf(entry[key])}`);
  }
  if (entry.command === '') throw new TypeError(`${where}: "command" must not be empty`);
  if (entry.bearerToken !== undefined && !hasUrl)
    throw new TypeError(`${where}: "bearerToken" only applies to a "url" upstream`);
  if (entry.bearerToken === '') throw new TypeError(`${where}: "bearerToken" must not be empty`);
  if (entry.args !== undefined && (!Array.isArray(entry.args) || !entry.args.every((a) => typeof a === 'string')))
    throw new TypeError(`${where}: "args" must be an array of strings`);
  for (const key of ['env', 'headers'] as const) {
    const value = entry[key];
    if (value !== undefined && (!isJsonObject(value) || !Object.values(value).every((v) => typeof v === 'string')))
      throw new TypeError(`${where}: "${key}" must be an object of strings`);
  }
  if (entry.trustServerAnnotations !== undefined && typeof entry.trustServerAnnotations !== 'boolean')
    throw new TypeError(`${where}: "trustServerAnnotations" must be a boolean`);
  if (hasUrl) {
    try {
      new URL(entry.url as string);
    } catch {
      throw new TypeError(`${where}: "url" is not a URL: ${JSON.stringify(entry.url)}`);
    }
  }
  return entry as unknown as ProxyUpstream;
}

/** The name an upstream goes by: its `name`, else its URL or command line. */
export function upstreamName(upstream: ProxyUpstream): string {
  if (upstream.name !== undefined) return upstream.name;
  if (upstream.url !== undefined) return upstream.url;
  return [upstream.command ?? '', ...(upstream.args ?? [])].join(' ');
}
