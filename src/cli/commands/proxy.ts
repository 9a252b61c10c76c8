import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { isJsonObject } from '../../contract/index.js';
import { errorText } from '../../util/describe.js';
import {
  createProxy,
  jwtVerifier,
  type AuthOptions,
  type Proxy,
  type ProxyOptions,
  type ProxyUpstream,
} from '../../mcp/index.js';
import type { ProxyAuthConfig, ProxyCommand } from '../args.js';
import type { CliIo } from '../io.js';
import { servedCount } from './serve.js';
import { askingProxyPolicy } from '../proxy-policy.js';
import { CliError } from '../cli-error.js';

/**
 * Reads one upstream word: `NAME=TARGET` names the server NAME and prefixes its tools `NAME.`;
 * a TARGET starting `http://` or `https://` is a URL, anything else a stdio command line split
 * at runs of spaces (use --config for arguments that hold spaces).
 */
export function upstreamOfWord(word: string): ProxyUpstream {
  const named = /^([A-Za-z0-9_-]+)=(.+)$/s.exec(word);
  const target = named === null ? word : named[2]!;
  const naming = named === null ? {} : { name: named[1]!, prefix: `${named[1]!}.` };
  if (/^https?:\/\//.test(target)) return { ...naming, url: target };
  const [command, ...args] = target.trim().split(/\s+/);
  if (command === undefined || command === '')
    throw new CliError(`proxy: the upstream ${JSON.stringify(word)} has no command`);
  return { ...naming, command, args };
}

/** The keys a config file's object form may have. */
const CONFIG_KEYS = ['servers', 'maxLLMChars', 'maxOutputChars', 'policy', 'auth'];
const AUTH_KEYS = ['issuer', 'resource', 'requiredScopes', 'jwksUri', 'resourceName', 'requireAtJwtTyp'];

/** Reads `--config`: an array of upstreams, or `{servers, maxLLMChars?, maxOutputChars?, policy?, auth?}`. */
async function readConfig(
  path: string,
  cwd: string,
): Promise<{ servers: unknown[]; options: ProxyOptions; auth?: ProxyAuthConfig }> {
  let text: string;
  try {
    text = await readFile(resolve(cwd, path), 'utf8');
  } catch (err) {
    throw new CliError(`proxy: cannot read the config ${JSON.stringify(path)}: ${errorText(err)}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new CliError(`proxy: the config ${JSON.stringify(path)} is not valid JSON: ${errorText(err)}`);
  }
  if (Array.isArray(value)) return { servers: value, options: {} };
  if (!isJsonObject(value) || !Array.isArray(value.servers))
    throw new CliError(
      `proxy: the config ${JSON.stringify(path)} must be an array of servers or an object with a "servers" array`,
    );
  const options: { maxLLMChars?: number; maxOutputChars?: number; policy?: ProxyOptions['policy'] } = {};
  for (const key of Object.keys(value)) {
    if (!CONFIG_KEYS.includes(key))
      throw new CliError(
        `proxy: the config has an unknown key ${JSON.stringify(key)} (known keys: ${CONFIG_KEYS.join(', ')})`,
      );
  }
  if (value.maxLLMChars !== undefined) {
    if (typeof value.maxLLMChars !== 'number') throw new CliError('proxy: "maxLLMChars" must be a number');
    options.maxLLMChars = value.maxLLMChars;
  }
  if (value.maxOutputChars !== undefined) {
    if (typeof value.maxOutputChars !== 'number') throw new CliError('proxy: "maxOutputChars" must be a number');
    options.maxOutputChars = value.maxOutputChars;
  }
  if (value.policy !== undefined) {
    if (!isJsonObject(value.policy)) throw new CliError('proxy: "policy" must be an object like {"rules": [...]}');
    options.policy = value.policy as ProxyOptions['policy'];
  }
  return { servers: value.servers, options, ...(value.auth === undefined ? {} : { auth: authOfConfig(value.auth) }) };
}

/**
 * Checks the config's `auth`: an object with a URL `issuer`, optional URL `resource` and
 * `jwksUri`, a string array `requiredScopes`, a string `resourceName` and a boolean
 * `requireAtJwtTyp`, nothing else.
 */
function authOfConfig(auth: unknown): ProxyAuthConfig {
  if (!isJsonObject(auth))
    throw new CliError(
      'proxy: "auth" must be an object like {"issuer": "https://auth.example.com", "requiredScopes": ["mcp"]}',
    );
  for (const key of Object.keys(auth)) {
    if (!AUTH_KEYS.includes(key))
      throw new CliError(
        `proxy: "auth" has an unknown key ${JSON.stringify(key)} (known keys: ${AUTH_KEYS.join(', ')})`,
      );
  }
  for (const key of ['issuer', 'resource', 'jwksUri'] as const) {
    const url = auth[key];
    if (url === undefined && key !== 'issuer') continue;
    if (typeof url !== 'string' || !URL.canParse(url))
      throw new CliError(`proxy: "auth.${key}" must be a URL, got ${JSON.stringify(url ?? null)}`);
  }
  if (
    auth.requiredScopes !== undefined &&
    (!Array.isArray(auth.requiredScopes) ||
      !auth.requiredScopes.every((scope) => typeof scope === 'string' && scope !== ''))
  ) {
    throw new CliError('proxy: "auth.requiredScopes" must be an array of non-empty strings');
  }
  if (auth.resourceName !== undefined && typeof auth.resourceName !== 'string')
    throw new CliError('proxy: "auth.resourceName" must be a string');
  if (auth.requireAtJwtTyp !== undefined && typeof auth.requireAtJwtTyp !== 'boolean')
    throw new CliError('proxy: "auth.requireAtJwtTyp" must be true or false');
  return auth as unknown as ProxyAuthConfig;
}

/** The `auth` option of the proxy's HTTP side: JWTs of the issuer, checked with its JWKS. */
export function authOptionsOf(config: ProxyAuthConfig): AuthOptions {
  return {
    verifier: jwtVerifier({
      issuer: config.issuer,
      ...(config.jwksUri === undefined ? {} : { jwksUri: config.jwksUri }),
      ...(config.requireAtJwtTyp === undefined ? {} : { requireAtJwtTyp: config.requireAtJwtTyp }),
    }),
    issuer: config.issuer,
    ...(config.resource === undefined ? {} : { resource: config.resource }),
    ...(config.requiredScopes === undefined ? {} : { requiredScopes: config.requiredScopes }),
    ...(config.resourceName === undefined ? {} : { resourceName: config.resourceName }),
  };
}

/**
 * `toolwright proxy`: connects every upstream (from the words and `--config`), then serves the
 * aggregate as server `--name` (default `toolwright-proxy`) version `--version` (default
 * `0.0.0`): over stdio (resolves once stdin closes) or with `--http` at a URL printed on stderr
 * (resolves after Ctrl-C or SIGTERM). A startup failure (an upstream that cannot be reached, a
 * name two servers share) is a `CliError` with exit code 2. Upstreams' stderr is passed through.
 * With `--auth-issuer` or the config's `auth`, the HTTP side requires bearer tokens (see
 * `authOptionsOf`). Permissions: the config's `policy` rules, then the consumer's default (`read`
 * allowed, anything else denied); with `--ask`, what no rule decides is asked of the user of the
 * proxy's client instead of denied (see `askingProxyPolicy`).
 */
export async function proxyCommand(command: ProxyCommand, io: CliIo): Promise<number> {
  const fromConfig: { servers: unknown[]; options: ProxyOptions; auth?: ProxyAuthConfig } =
    command.config === undefined ? { servers: [], options: {} } : await readConfig(command.config, io.cwd);
  if (fromConfig.auth !== undefined && command.auth !== undefined)
    throw new CliError('proxy: give auth in the config or as --auth-* flags, not both');
  const auth = command.auth ?? fromConfig.auth;
  if (auth !== undefined && command.http === undefined)
    throw new CliError(
      'proxy: "auth" only applies to --http (stdio is not authenticated: a local process trusts its parent)',
    );
  const upstreams = [...(fromConfig.servers as ProxyUpstream[]), ...command.upstreams.map(upstreamOfWord)];
  const info = { name: command.name ?? 'toolwright-proxy', version: command.version ?? '0.0.0' };
  let proxy: Proxy;
  try {
    proxy = await createProxy(upstreams, {
      ...fromConfig.options,
      ...(command.ask === true ? { policy: askingProxyPolicy(fromConfig.options.policy) } : {}),
      info,
      onError: (err) => io.err(`toolwright: ${err.message}\n`),
    });
  } catch (err) {
    throw new CliError(errorText(err));
  }
  const served = servedCount(
    proxy.tools.length,
    proxy.resources.length === 0 ? undefined : proxy.resources.length,
    proxy.prompts.length === 0 ? undefined : proxy.prompts.length,
  );
  const count = `${served} of ${upstreams.length} server${upstreams.length === 1 ? '' : 's'}`;
  try {
    if (command.http === undefined) {
      const handle = await proxy.serveStdio();
      io.err(`toolwright: proxying ${count} over stdio\n`);
      await handle.closed;
      return 0;
    }
    const { host, port } = command.http;
    let server: Awaited<ReturnType<Proxy['serveHttp']>>;
    try {
      server = await proxy.serveHttp({
        host,
        port,
        stateless: command.stateless,
        ...(auth === undefined ? {} : { auth: authOptionsOf(auth) }),
      });
    } catch (error) {
      throw new CliError(`cannot listen on ${host.includes(':') ? `[${host}]` : host}:${port}: ${errorText(error)}`);
    }
    io.err(`toolwright: proxying ${count} at ${server.url}; Ctrl-C stops\n`);
    await io.stopRequested();
    await server.close();
    return 0;
  } finally {
    await proxy.close();
  }
}
