import { ElicitRequestSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/v4';

/** Options an SDK request takes (both SDK lines read these names). */
export interface ClientRequestOptions {
  signal?: AbortSignal;
  timeout?: number;
  onprogress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/**
 * A connected MCP client, typed by the few members the consumer uses, so both the 2025-era
 * `Client` of `@modelcontextprotocol/sdk` (1.x) and the `Client` of `@modelcontextprotocol/client`
 * (2.x, which also speaks the 2026-07-28 era) fit. Only `listTools` and `callTool` are required.
 * The two lines differ in `callTool` (1.x takes a result schema second, 2.x the options) and in
 * handler registration (1.x by zod schema, 2.x by method name); a 2.x client is told apart by its
 * `getProtocolEra` method.
 */
export interface McpClientLike {
  listTools(params?: { cursor?: string }, options?: ClientRequestOptions): Promise<{ tools: unknown[]; nextCursor?: string }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }, ...rest: never[]): Promise<unknown>;
  request?(request: { method: string; params?: Record<string, unknown> }, resultSchema: never, options?: ClientRequestOptions): Promise<unknown>;
  getServerCapabilities?(): { experimental?: Record<string, unknown>; tools?: { listChanged?: boolean } } | undefined;
  getServerVersion?(): { name?: string } | undefined;
  getClientCapabilities?(): { elicitation?: unknown } | undefined;
  setNotificationHandler?(...args: never[]): void;
  setRequestHandler?(...args: never[]): void;
  getProtocolEra?(): string | undefined;
}

/** True for a client of the 2.x line (`@modelcontextprotocol/client`). */
export function isV2Client(client: McpClientLike): boolean {
  return typeof client.getProtocolEra === 'function';
}

/** Calls a tool with request options on either SDK line. */
export function callToolOn(client: McpClientLike, params: { name: string; arguments: Record<string, unknown>; _meta?: Record<string, unknown> }, options: ClientRequestOptions): Promise<unknown> {
  const call = client.callTool as unknown as (...args: unknown[]) => Promise<unknown>;
  return isV2Client(client) ? call.call(client, params, options) : call.call(client, params, undefined, options);
}

/** Any JSON-RPC result object; the consumer checks the shape itself. */
const AnyResult = z.looseObject({});

/**
 * Sends a request of a method the SDKs do not know (`execution/facts`), on either line. Throws
 * a `TypeError` when the client has no `request` method.
 */
export function requestOn(client: McpClientLike, method: string, params: Record<string, unknown>, options: ClientRequestOptions): Promise<unknown> {
  if (typeof client.request !== 'function') throw new TypeError(`the MCP client has no "request" method, so "${method}" cannot be sent`);
  const request = client.request as unknown as (...args: unknown[]) => Promise<unknown>;
  return request.call(client, { method, params }, AnyResult, options);
}

/**
 * Runs `listener` on every `notifications/tools/list_changed` from the server. Returns false when
 * the client cannot register notification handlers. It replaces a handler the client already had
 * for that notification.
 */
export function onToolListChanged(client: McpClientLike, listener: () => void): boolean {
  if (typeof client.setNotificationHandler !== 'function') return false;
  const register = client.setNotificationHandler as unknown as (...args: unknown[]) => void;
  const handler = (): void => listener();
  if (isV2Client(client)) register.call(client, 'notifications/tools/list_changed', handler);
  else register.call(client, ToolListChangedNotificationSchema, handler);
  return true;
}

/** An elicitation request's params as the server sent them. */
export type ElicitParams = Record<string, unknown>;

/**
 * Answers the server's `elicitation/create` requests with `answer` (in the 2026 era the 2.x
 * client turns `input_required` questions into the same handler calls). Returns false when the
 * client cannot take the handler: it has no `setRequestHandler`, or it declared no elicitation
 * capability (the SDKs refuse the handler then; the server will not ask such a client).
 */
export function onElicitation(client: McpClientLike, answer: (params: ElicitParams) => Promise<Record<string, unknown>>): boolean {
  if (typeof client.setRequestHandler !== 'function') return false;
  const register = client.setRequestHandler as unknown as (...args: unknown[]) => void;
  const handler = async (request: { params?: unknown }): Promise<Record<string, unknown>> => answer((request?.params ?? {}) as ElicitParams);
  try {
    if (isV2Client(client)) register.call(client, 'elicitation/create', handler);
    else register.call(client, ElicitRequestSchema, handler);
    return true;
  } catch {
    return false;
  }
}
