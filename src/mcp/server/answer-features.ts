import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import { InvalidArgumentsError, isJsonObject, ResourceNotFoundError, type CallContext } from '../../contract/index.js';
import { kindOf } from '../../util/describe.js';
import {
  runComplete,
  runList,
  runPrompt,
  runRead,
  type PreparedPrompt,
  type PreparedTemplate,
} from '../../runtime/features/index.js';
import { errorText } from '../../util/describe.js';
import {
  promptDefinitionOf,
  promptResultWireOf,
  readResultOf,
  resourceDefinitionOf,
  templateDefinitionOf,
} from './feature-wire.js';
import type { ServedFeatures } from './features.js';
import { pageOf } from './listing.js';
import { invalidParams, ProtocolError } from './protocol-error.js';

/*
 * The answers of the resource, prompt and completion methods, independent of the SDK's server:
 * the MCP handlers and `toolwright/testing` both answer through them. Each resolves the MCP
 * result, or rejects with a `ProtocolError` the transport sends as a JSON-RPC error.
 */

/**
 * Makes the context of one read, rendering, listing or completion: `name` as `ctx.call.tool`,
 * `args` as `ctx.call.args`.
 */
export type FeatureContextOf = (name: string, args: unknown) => CallContext;

/**
 * MCP's resource-not-found error: `-32602` `Resource not found` with the URI as `data`, in both
 * eras (2026-07-28 moved it from `-32002`, which 2025-11-25 suggested; the SDK's encoder maps
 * `-32002` to `-32602` on every revision, and clients accept both).
 */
export function resourceNotFound(uri: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, 'Resource not found', { uri });
}

/**
 * A failed read, rendering or completion as a JSON-RPC error: invalid arguments `-32602`,
 * anything else `-32603`, with the failure's text; a `ProtocolError` (an upstream's answer,
 * through a proxy) as it is.
 */
export function failureOf(error: unknown, data?: Record<string, unknown>): ProtocolError {
  // An upstream's own JSON-RPC error (a consumed resource or prompt) crosses as it came.
  if (error instanceof ProtocolError)
    return error.data === undefined && data !== undefined ? new ProtocolError(error.code, error.message, data) : error;
  const code =
    error instanceof InvalidArgumentsError ? ProtocolErrorCode.InvalidParams : ProtocolErrorCode.InternalError;
  return new ProtocolError(code, errorText(error), data);
}

function uriOf(params: unknown, method: string): string {
  const uri = isJsonObject(params) ? params.uri : undefined;
  if (typeof uri !== 'string') throw invalidParams(`${method}: params.uri must be a string, got ${kindOf(uri)}`);
  return uri;
}

/**
 * `resources/list`: the resources with fixed URIs, then what each template's `list` enumerates
 * (in template order; a listing that fails is `-32603` naming the template), one page at a time.
 */
export async function answerResourcesList(
  features: ServedFeatures,
  params: unknown,
  contextOf: FeatureContextOf,
): Promise<Record<string, unknown>> {
  const resources = features.resources;
  const listed: Record<string, unknown>[] = [];
  if (resources !== undefined) {
    for (const prepared of resources.resources.values()) listed.push(resourceDefinitionOf(prepared.resource));
    for (const template of resources.templates) {
      if (template.template.list === undefined) continue;
      try {
        for (const resource of await runList(template, contextOf(template.template.name, {})))
          listed.push(resourceDefinitionOf(resource));
      } catch (err) {
        throw failureOf(err);
      }
    }
  }
  return pageOf(listed, 'resources', params, 'resources/list', features.pageSize);
}

/** `resources/templates/list`: the templates in order, one page at a time. */
export function answerTemplatesList(features: ServedFeatures, params: unknown): Record<string, unknown> {
  const templates = features.resources?.templates.map((prepared) => templateDefinitionOf(prepared.template)) ?? [];
  return pageOf(templates, 'resourceTemplates', params, 'resources/templates/list', features.pageSize);
}

/**
 * `resources/read`: the resource with the URI, else the first template the URI matches, read
 * through the core (see `runRead`). A URI nothing serves, and a read that throws
 * `ResourceNotFoundError`, is `Resource not found` (see `resourceNotFound`); a failed read is a
 * JSON-RPC error with its text (see `failureOf`).
 */
export async function answerRead(
  features: ServedFeatures,
  params: unknown,
  contextOf: FeatureContextOf,
): Promise<Record<string, unknown>> {
  const uri = uriOf(params, 'resources/read');
  const found = features.resources?.find(uri);
  if (found === undefined) throw resourceNotFound(uri);
  const prepared = 'resource' in found ? found.resource : found.template;
  const name = prepared.kind === 'resource' ? prepared.resource.name : prepared.template.name;
  const end = await runRead(
    prepared,
    uri,
    'variables' in found ? found.variables : undefined,
    contextOf(name, { uri }),
  );
  if (!end.ok) throw end.error instanceof ResourceNotFoundError ? resourceNotFound(uri) : failureOf(end.error, { uri });
  return readResultOf(end.contents);
}

/** The URI `resources/subscribe` or `resources/unsubscribe` names, checked to be one the server serves. */
export function subscribedUriOf(features: ServedFeatures, params: unknown, method: string): string {
  const uri = uriOf(params, method);
  if (features.resources?.find(uri) === undefined) throw resourceNotFound(uri);
  return uri;
}

/** `prompts/list`: the prompts in order, one page at a time. */
export function answerPromptsList(features: ServedFeatures, params: unknown): Record<string, unknown> {
  const prompts = [...(features.prompts?.values() ?? [])].map((prepared) => promptDefinitionOf(prepared.prompt));
  return pageOf(prompts, 'prompts', params, 'prompts/list', features.pageSize);
}

/** The prompt `prompts/get` names: `-32602` `Unknown prompt: <name>` when there is none. */
export function promptOf(features: ServedFeatures, params: unknown): PreparedPrompt {
  const name = isJsonObject(params) ? params.name : undefined;
  if (typeof name !== 'string') throw invalidParams(`prompts/get: params.name must be a string, got ${kindOf(name)}`);
  const prepared = features.prompts?.get(name);
  if (prepared === undefined) throw invalidParams(`Unknown prompt: ${name}`);
  return prepared;
}

/**
 * `prompts/get`: the prompt rendered through the core (see `runPrompt`) with `params.arguments`
 * (missing is `{}`; anything but an object of strings, and arguments the prompt refuses, are
 * `-32602` with the problems; a failed rendering is `-32603` with its text).
 */
export async function answerGetPrompt(
  features: ServedFeatures,
  params: unknown,
  contextOf: FeatureContextOf,
): Promise<Record<string, unknown>> {
  const prepared = promptOf(features, params);
  const args = (params as { arguments?: unknown }).arguments ?? {};
  const end = await runPrompt(prepared, args, contextOf(prepared.prompt.name, args));
  if (!end.ok) throw failureOf(end.error);
  return promptResultWireOf(end.result);
}

/**
 * `completion/complete`: `ref/prompt` by prompt name, `ref/resource` by URI template, one
 * argument (or variable) of it, with `context.arguments` when given; the answer bounded to 100
 * values (see `runComplete`). An unknown reference or argument, or malformed params, is
 * `-32602`; a failed completer is `-32603` with its text.
 */
export async function answerComplete(
  features: ServedFeatures,
  params: unknown,
  contextOf: FeatureContextOf,
): Promise<Record<string, unknown>> {
  const given = isJsonObject(params) ? params : {};
  const ref = given.ref;
  const argument = given.argument;
  if (!isJsonObject(ref)) throw invalidParams(`completion/complete: params.ref must be an object, got ${kindOf(ref)}`);
  if (!isJsonObject(argument) || typeof argument.name !== 'string' || typeof argument.value !== 'string')
    throw invalidParams('completion/complete: params.argument must be { name, value } with string members');
  const context = isJsonObject(given.context) ? given.context : undefined;
  const filled = isJsonObject(context?.arguments) ? context.arguments : {};
  const resolved: Record<string, string> = {};
  for (const [name, value] of Object.entries(filled)) if (typeof value === 'string') resolved[name] = value;
  let prepared: PreparedPrompt | PreparedTemplate | undefined;
  let names: readonly string[];
  if (ref.type === 'ref/prompt') {
    if (typeof ref.name !== 'string') throw invalidParams('completion/complete: a ref/prompt needs a string "name"');
    prepared = features.prompts?.get(ref.name);
    if (prepared === undefined) throw invalidParams(`Unknown prompt: ${ref.name}`);
    names = (prepared.prompt.arguments ?? []).map((a) => a.name);
  } else if (ref.type === 'ref/resource') {
    if (typeof ref.uri !== 'string') throw invalidParams('completion/complete: a ref/resource needs a string "uri"');
    prepared = features.resources?.byTemplate.get(ref.uri);
    if (prepared === undefined) throw invalidParams(`Unknown resource template: ${ref.uri}`);
    names = prepared.variables;
  } else throw invalidParams(`completion/complete: unknown ref type ${JSON.stringify(ref.type) ?? 'nothing'}`);
  if (!names.includes(argument.name))
    throw invalidParams(
      `completion/complete: ${ref.type === 'ref/prompt' ? `prompt ${JSON.stringify(ref.name)} has no argument` : `template ${JSON.stringify(ref.uri)} has no variable`} ${JSON.stringify(argument.name)}`,
    );
  const made = prepared.kind === 'prompt' ? prepared.prompt : prepared.template;
  try {
    const answer = await runComplete(
      prepared,
      { argument: argument.name, value: argument.value, arguments: resolved },
      contextOf(made.name, { argument: argument.name, value: argument.value }),
    );
    return { completion: answer };
  } catch (err) {
    throw failureOf(err);
  }
}
