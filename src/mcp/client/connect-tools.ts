import { checkOptionsObject, optionKeys } from '../../util/options.js';
import { CONSUME } from '../entry-options.js';
import type { ContractTool } from '../../contract/index.js';
import { TOOL_NAME_PATTERN, isJsonObject } from '../../contract/index.js';
import { PermissionPolicy } from '../../runtime/index.js';
import { kindOf } from '../../util/describe.js';
import { requestOn, type McpClientLike } from './client-like.js';
import { consumedTool } from './consumed-tool.js';
import type { ConsumeOptions, ListedTool, PerTool } from './options.js';
import { consumerPolicy } from './policy.js';
import { permissionOf } from './trust.js';
import { Upstream } from './upstream.js';

/** The most pages `listToolsOf` follows before it gives up (a server that never stops paging). */
export const MAX_LIST_PAGES = 1000;

/**
 * Lists every tool of a server, following `nextCursor` page by page, each definition kept as
 * the server sent it. Throws, naming the server,
 * when a page is not `{tools: [...]}`, when a tool is not an object with a non-blank string
 * `name` (`mcp server "s": tools/list: tool 3 has a blank name`), when a cursor repeats or more
 * than `MAX_LIST_PAGES` pages come.
 */
export async function listToolsOf(client: McpClientLike, server: string): Promise<ListedTool[]> {
  const tools: ListedTool[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page += 1) {
    const result = await listPage(client, cursor);
    if (!isJsonObject(result) || !Array.isArray(result.tools))
      throw new Error(`mcp server ${JSON.stringify(server)}: tools/list: the answer has no "tools" array`);
    for (const tool of result.tools) {
      const index = tools.length;
      if (!isJsonObject(tool))
        throw new Error(
          `mcp server ${JSON.stringify(server)}: tools/list: tool ${index} is ${kindOf(tool)}, not an object`,
        );
      if (typeof tool.name !== 'string' || tool.name.trim() === '')
        throw new Error(`mcp server ${JSON.stringify(server)}: tools/list: tool ${index} has a blank name`);
      tools.push(tool as unknown as ListedTool);
    }
    const next = result.nextCursor;
    if (typeof next !== 'string' || next === '') return tools;
    if (seen.has(next))
      throw new Error(
        `mcp server ${JSON.stringify(server)}: tools/list: the cursor ${JSON.stringify(next)} came twice`,
      );
    seen.add(next);
    cursor = next;
  }
  throw new Error(`mcp server ${JSON.stringify(server)}: tools/list: more than ${MAX_LIST_PAGES} pages`);
}

/**
 * One page of `tools/list`, as it crossed the wire: through `request` with a schema that keeps
 * every member in its order (the SDKs' `listTools` parses each tool and reorders the keys of
 * its schemas), else through `listTools`.
 */
async function listPage(client: McpClientLike, cursor: string | undefined): Promise<unknown> {
  const params = cursor === undefined ? {} : { cursor };
  if (typeof client.request === 'function') return requestOn(client, 'tools/list', params, {});
  return client.listTools(cursor === undefined ? undefined : { cursor });
}

/** The server's name: the option, else the name it gave at `initialize`, else `mcp`. */
export function serverNameOf(client: McpClientLike, options: ConsumeOptions): string {
  if (options.server !== undefined) return options.server;
  const name = client.getServerVersion?.()?.name;
  return typeof name === 'string' && name !== '' ? name : 'mcp';
}

function pick<T>(value: PerTool<T> | undefined, tool: ListedTool): T | undefined {
  return typeof value === 'function' ? (value as (tool: ListedTool) => T | undefined)(tool) : value;
}

/** The policy the options ask for (see `ConsumeOptions.policy`). */
export function policyOf(options: ConsumeOptions): PermissionPolicy | null {
  if (options.policy === null || options.policy === false) return null;
  if (options.policy instanceof PermissionPolicy) return options.policy;
  return consumerPolicy(options.policy ?? {});
}

/** `connectTools`'s option keys. */
const CONNECT_TOOLS_KEYS = optionKeys<ConsumeOptions>()(...CONSUME);

/**
 * Lists a connected client's tools (every page) and returns them as contract tools, one per
 * listed tool, in the server's order. Call it again to refresh. See `consumedTool` for what
 * each tool is; per call it sends the arguments as given (missing or `""` as `{}`, anything
 * else but an object refused with `invalid arguments: the arguments must be a JSON object`),
 * turns progress into `ctx.update` (`details` `{progress, total?, message}`), sends
 * `notifications/cancelled` when the call's signal fires, and ends with `timeoutMs` when set.
 * A tool its server runs only as a task (`required`), and one it may run as a task
 * (`optional`) when the call runs as a task itself (`ctx.call.taskId`, a proxy), is called as a
 * task and polled at the server's interval: the 2025-11-25 utility (`callAsUpstreamTask`) or,
 * with a 2.x client in the 2026-07-28 era, the extension (`callAsModernUpstreamTask`; a plain
 * call refused `-32021` for want of the extension is made again as a task); the call's signal
 * and `timeoutMs` cancel the upstream task. Failures: a server `isError` result throws a
 * `ToolError` with the server's text; a transport failure throws `mcp server "<server>": tool
 * "<tool>": <reason>`, an upstream task that ends failed or cancelled `mcp server "<server>":
 * tool "<tool>": the upstream task <id> ended <status>: <message>`.
 *
 * Throws, before returning any tool, on an unknown option (`connectTools: unknown option "x"
 * (known options: ...)`), on a listing problem (see `listToolsOf`), on a name that
 * breaks MCP's rule once prefixed, and on a name listed twice.
 */
export async function connectTools(client: McpClientLike, options: ConsumeOptions = {}): Promise<ContractTool[]> {
  checkClient(client);
  checkOptionsObject('connectTools', options, CONNECT_TOOLS_KEYS);
  const server = serverNameOf(client, options);
  const upstream = new Upstream(server, async () => client, options.elicit);
  return toolsOf(upstream, client, options);
}

/** Builds the contract tools of `upstream` from a fresh listing through `client`. */
export async function toolsOf(
  upstream: Upstream,
  client: McpClientLike,
  options: ConsumeOptions,
): Promise<ContractTool[]> {
  const listed = await listToolsOf(client, upstream.server);
  const claimsApply = options.trustClaims === true && Upstream.offersFacts(client);
  const policy = policyOf(options);
  const prefix = options.prefix ?? '';
  const names = new Set<string>();
  return listed.map((tool) => {
    const name = `${prefix}${tool.name}`;
    if (!TOOL_NAME_PATTERN.test(name))
      throw new Error(
        `mcp server ${JSON.stringify(upstream.server)}: tool ${JSON.stringify(name)}: the name must be 1 to 128 characters of A-Za-z0-9, "_", "-" and "."`,
      );
    if (names.has(name))
      throw new Error(`mcp server ${JSON.stringify(upstream.server)}: tool ${JSON.stringify(name)} is listed twice`);
    names.add(name);
    return consumedTool(upstream, {
      listed: tool,
      name,
      permission: permissionOfTool(tool, options),
      executionMode: pick(options.executionMode, tool),
      timeoutMs: pick(options.timeoutMs, tool),
      maxLLMChars: options.maxLLMChars,
      claimsApply,
      policy,
      statesRequirement: options.policy !== false,
    });
  });
}

function permissionOfTool(tool: ListedTool, options: ConsumeOptions): string {
  const explicit = pick(options.permission, tool);
  const annotations = isJsonObject(tool.annotations) ? tool.annotations : undefined;
  return permissionOf(annotations, {
    ...(explicit === undefined ? {} : { permission: explicit }),
    trustServerAnnotations: options.trustServerAnnotations === true,
  });
}

function checkClient(client: McpClientLike): void {
  if (
    typeof client !== 'object' ||
    client === null ||
    typeof client.listTools !== 'function' ||
    typeof client.callTool !== 'function'
  ) {
    throw new TypeError(
      `connectTools: expected a connected MCP client with listTools and callTool, got ${kindOf(client)}`,
    );
  }
}
