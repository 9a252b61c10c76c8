import {
  isJsonObject,
  RESOURCE_URI_PATTERN,
  TOOL_NAME_PATTERN,
  type CallContext,
  type CompletionAnswer,
  type CompletionRequest,
  type ContractPrompt,
  type ContractResource,
  type ContractResourceTemplate,
  type PromptArgument,
  type PromptResult,
  type ResourceContent,
  type ResourceContext,
} from '../../contract/index.js';
import { kindOf, errorText } from '../../util/describe.js';
import { MAX_TIMEOUT_MS } from '../../util/limits.js';
import { withListedDefinition } from '../server/feature-wire.js';
import { ProtocolError } from '../server/protocol-error.js';
import { requestOn, type McpClientLike } from './client-like.js';
import { MAX_LIST_PAGES } from './connect-tools.js';
import type { Upstream } from './upstream.js';

/** What an upstream serves besides tools, as contract values of their own. */
export interface ConsumedFeatures {
  /** Its resources (fixed URIs, as `resources/list` lists them) and templates, in the server's order. */
  readonly resources: readonly (ContractResource | ContractResourceTemplate)[];
  /** Its prompts, in the server's order. */
  readonly prompts: readonly ContractPrompt[];
}

/** The capabilities of an upstream that matter here. */
interface FeatureCapabilities {
  readonly resources?: unknown;
  readonly prompts?: unknown;
  readonly completions?: unknown;
}

function capabilitiesOf(client: McpClientLike): FeatureCapabilities {
  return (client.getServerCapabilities?.() ?? {}) as FeatureCapabilities;
}

/**
 * Every entry of a paginated list (`resources/list`, `resources/templates/list`,
 * `prompts/list`), following `nextCursor`, each entry as the server sent it. Throws, naming the
 * server and the method, when a page has no `key` array, an entry is not an object, a cursor
 * repeats or more than `MAX_LIST_PAGES` pages come.
 */
export async function listAllOf(
  client: McpClientLike,
  server: string,
  method: string,
  key: string,
): Promise<Record<string, unknown>[]> {
  const where = `mcp server ${JSON.stringify(server)}: ${method}`;
  const entries: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page += 1) {
    const result = await requestOn(client, method, cursor === undefined ? {} : { cursor }, {});
    const listed = isJsonObject(result) ? result[key] : undefined;
    if (!Array.isArray(listed)) throw new Error(`${where}: the answer has no "${key}" array`);
    for (const entry of listed) {
      if (!isJsonObject(entry)) throw new Error(`${where}: entry ${entries.length} is ${kindOf(entry)}, not an object`);
      entries.push(entry);
    }
    const next = (result as { nextCursor?: unknown }).nextCursor;
    if (typeof next !== 'string' || next === '') return entries;
    if (seen.has(next)) throw new Error(`${where}: the cursor ${JSON.stringify(next)} came twice`);
    seen.add(next);
    cursor = next;
  }
  throw new Error(`${where}: more than ${MAX_LIST_PAGES} pages`);
}

/**
 * A failure of a request to the upstream, as the consumed value throws it: a JSON-RPC error the
 * server answered is a `ProtocolError` with its code, message (without the SDK's `MCP error
 * <code>: ` prefix) and data, so a proxy answers its own client with the same error; anything
 * else (the connection is gone, the request timed out: 1.x's -32000 and -32001, the 2.x SDK's own
 * codes) is `mcp server "<server>": <method>: <why>` and tells the upstream it may have lost its
 * connection.
 */
function upstreamFailure(upstream: Upstream, method: string, err: unknown, ctx: CallContext): Error {
  if (ctx.signal.aborted)
    return ctx.signal.reason instanceof Error ? ctx.signal.reason : new Error(`${method}: the request was cancelled`);
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  const message = errorText(err);
  if (typeof code === 'number' && code >= -32768 && code <= -32002)
    return new ProtocolError(code, message.replace(/^MCP error -?\d+: /, ''), (err as { data?: unknown }).data);
  upstream.onFailure(err);
  const own = `mcp server ${JSON.stringify(upstream.server)}: `;
  return new Error(`${own}${method}: ${message.startsWith(own) ? message.slice(own.length) : message}`);
}

/**
 * Sends one request to the upstream on behalf of `ctx` (its signal cancels it; questions the server
 * asks meanwhile go to `ctx`).
 */
async function forward(
  upstream: Upstream,
  method: string,
  params: Record<string, unknown>,
  ctx: CallContext,
  name: string,
): Promise<Record<string, unknown>> {
  const untrack = upstream.track(ctx, name);
  try {
    const client = await upstream.client();
    const answer = await requestOn(client, method, params, { signal: ctx.signal, timeout: MAX_TIMEOUT_MS });
    if (!isJsonObject(answer))
      throw new Error(
        `mcp server ${JSON.stringify(upstream.server)}: ${method}: the answer is ${kindOf(answer)}, not an object`,
      );
    return answer;
  } catch (err) {
    throw err instanceof ProtocolError ? err : upstreamFailure(upstream, method, err, ctx);
  } finally {
    untrack();
  }
}

/** The contents of an upstream's `resources/read` answer, each `{ uri, mimeType?, text | blob }`. */
function contentsOf(answer: Record<string, unknown>, server: string): ResourceContent[] {
  const contents = answer.contents;
  if (!Array.isArray(contents))
    throw new Error(`mcp server ${JSON.stringify(server)}: resources/read: the answer has no "contents" array`);
  return contents.map((content) => content as ResourceContent);
}

function completionOf(answer: Record<string, unknown>, server: string): CompletionAnswer {
  const completion = answer.completion;
  if (!isJsonObject(completion))
    throw new Error(`mcp server ${JSON.stringify(server)}: completion/complete: the answer has no "completion"`);
  return completion as unknown as CompletionAnswer;
}

function completerOf(
  upstream: Upstream,
  ref: Record<string, unknown>,
  name: string,
): (request: CompletionRequest, ctx: CallContext) => Promise<CompletionAnswer> {
  return async (request, ctx) =>
    completionOf(
      await forward(
        upstream,
        'completion/complete',
        {
          ref,
          argument: { name: request.argument, value: request.value },
          ...(Object.keys(request.arguments).length === 0 ? {} : { context: { arguments: request.arguments } }),
        },
        ctx,
        name,
      ),
      upstream.server,
    );
}

function copyListed(target: Record<string, unknown>, listed: Record<string, unknown>, keys: readonly string[]): void {
  for (const key of keys) if (listed[key] !== undefined) target[key] = listed[key];
}

/**
 * The resources, templates and prompts of a connected upstream, as contract values of their own
 * (listed only where the server declares `resources` or `prompts`), each in the server's order:
 *
 * - a resource keeps its URI, is named `prefix + name`, and reads by sending the server
 *   `resources/read` for the URI read (its contents as the server gave them);
 * - a template keeps its URI template, reads a matching URI the same way, and completes through
 *   the server's `completion/complete` when the server declares `completions`;
 * - a prompt is named `prefix + name`, lists the server's arguments, renders by sending
 *   `prompts/get` with the server's own name, and completes as a template does.
 *
 * Each is served again with the server's own definition (its `_meta` and every other member)
 * under its prefixed name. A request the server answers with a JSON-RPC error throws that error
 * (`ProtocolError`, same code and data); a broken connection throws `mcp server "<server>":
 * <method>: <why>`. A question the server asks while a prompt renders goes where a tool call's
 * would (see `Upstream`). Throws, naming the server, for a malformed listing, an entry without a
 * valid URI, template or name, or a prefixed prompt name that breaks the MCP name rule.
 */
export async function featuresOf(upstream: Upstream, client: McpClientLike, prefix = ''): Promise<ConsumedFeatures> {
  const capabilities = capabilitiesOf(client);
  const server = upstream.server;
  const completes = capabilities.completions !== undefined;
  const resources: (ContractResource | ContractResourceTemplate)[] = [];
  if (capabilities.resources !== undefined) {
    for (const listed of await listAllOf(client, server, 'resources/list', 'resources')) {
      const { uri, name } = listed;
      if (typeof uri !== 'string' || !RESOURCE_URI_PATTERN.test(uri) || typeof name !== 'string' || name === '')
        throw new Error(
          `mcp server ${JSON.stringify(server)}: resources/list: a resource needs an absolute "uri" and a "name"`,
        );
      const made: Record<string, unknown> = { uri, name: `${prefix}${name}` };
      copyListed(made, listed, ['title', 'description', 'mimeType', 'size', 'annotations']);
      made.read = async (ctx: ResourceContext) =>
        contentsOf(await forward(upstream, 'resources/read', { uri: ctx.uri }, ctx, name), server);
      resources.push(withListedDefinition(Object.freeze(made) as unknown as ContractResource, listed));
    }
    for (const listed of await listAllOf(client, server, 'resources/templates/list', 'resourceTemplates')) {
      const { uriTemplate, name } = listed;
      if (typeof uriTemplate !== 'string' || typeof name !== 'string' || name === '')
        throw new Error(
          `mcp server ${JSON.stringify(server)}: resources/templates/list: a template needs a "uriTemplate" and a "name"`,
        );
      const made: Record<string, unknown> = { uriTemplate, name: `${prefix}${name}` };
      copyListed(made, listed, ['title', 'description', 'mimeType', 'annotations']);
      made.read = async (_variables: unknown, ctx: ResourceContext) =>
        contentsOf(await forward(upstream, 'resources/read', { uri: ctx.uri }, ctx, name), server);
      if (completes) made.complete = completerOf(upstream, { type: 'ref/resource', uri: uriTemplate }, name);
      resources.push(withListedDefinition(Object.freeze(made) as unknown as ContractResourceTemplate, listed));
    }
  }
  const prompts: ContractPrompt[] = [];
  if (capabilities.prompts !== undefined) {
    for (const listed of await listAllOf(client, server, 'prompts/list', 'prompts')) {
      const listedName = listed.name;
      if (typeof listedName !== 'string' || listedName === '')
        throw new Error(`mcp server ${JSON.stringify(server)}: prompts/list: a prompt needs a "name"`);
      const name = `${prefix}${listedName}`;
      if (!TOOL_NAME_PATTERN.test(name))
        throw new Error(
          `mcp server ${JSON.stringify(server)}: prompt ${JSON.stringify(name)}: the name must be 1 to 128 characters of A-Za-z0-9, "_", "-" and "."`,
        );
      const made: Record<string, unknown> = {
        name,
        description: typeof listed.description === 'string' ? listed.description : '',
      };
      copyListed(made, listed, ['title']);
      if (Array.isArray(listed.arguments))
        made.arguments = Object.freeze(
          listed.arguments
            .filter((a): a is PromptArgument => isJsonObject(a) && typeof a.name === 'string')
            .map((a) => Object.freeze({ ...a })),
        );
      made.get = async (args: Readonly<Record<string, string>>, ctx: CallContext) =>
        (await forward(
          upstream,
          'prompts/get',
          { name: listedName, arguments: { ...args } },
          ctx,
          listedName,
        )) as unknown as PromptResult;
      if (completes) made.complete = completerOf(upstream, { type: 'ref/prompt', name: listedName }, listedName);
      prompts.push(withListedDefinition(Object.freeze(made) as unknown as ContractPrompt, listed));
    }
  }
  return { resources: Object.freeze(resources), prompts: Object.freeze(prompts) };
}
