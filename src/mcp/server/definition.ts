import type { Tool as McpTool, ToolAnnotations } from '@modelcontextprotocol/server';
import {
  isBarrier,
  isFactual,
  isReadOnly,
  isSequential,
  resourceOf,
  taskTermsOf,
  type ContractTool,
  type JsonObject,
} from '../../contract/index.js';
import { TOOL_META_KEY } from './constants.js';
import { listedDefinitionOf } from './listed-definition.js';

/** The arguments schema listed for a tool that takes none (as the Go seed lists it). */
export const LISTED_EMPTY_SCHEMA: JsonObject = Object.freeze({
  type: 'object',
  properties: Object.freeze({}),
  required: Object.freeze([]),
}) as unknown as JsonObject;

/** The claims a listed tool carries under `_meta[TOOL_META_KEY]`; false and empty fields are left out. */
export interface ToolMeta {
  facts?: true;
  replay?: true;
  readOnly?: true;
  sequential?: true;
  barrier?: true;
  resource?: string;
  flow?: { readsUntrusted?: true; sends?: true };
  task?: { support: 'required' | 'optional'; ttlMs: number; pollIntervalMs: number };
}

/**
 * True when the tool's flow says it reads content it cannot trust or sends data out; such a tool
 * is listed with `openWorldHint: true` whatever its annotations say.
 */
export function flowForcesOpenWorld(tool: ContractTool): boolean {
  return tool.flow?.readsUntrusted === true || tool.flow?.sends === true;
}

/**
 * MCP's `annotations` block for a tool. A tool that states annotations gets every hint stated
 * (`title` when it has one, the four hints with a missing one `false`). A tool that states none
 * gets no block (MCP reads that as open-world and destructive), except that a flow which reads
 * untrusted content or sends makes the block `{"openWorldHint":true}` alone: the hints the tool
 * never stated keep MCP's conservative defaults, so nothing is listed looser than unstated.
 */
export function annotationsFor(tool: ContractTool): ToolAnnotations | undefined {
  const stated = tool.annotations;
  const forced = flowForcesOpenWorld(tool);
  if (stated === undefined) return forced ? { openWorldHint: true } : undefined;
  const block: ToolAnnotations = {};
  if (typeof stated.title === 'string' && stated.title !== '') block.title = stated.title;
  block.readOnlyHint = stated.readOnly === true;
  block.destructiveHint = stated.destructive === true;
  block.idempotentHint = stated.idempotent === true;
  block.openWorldHint = stated.openWorld === true || forced;
  return block;
}

/**
 * The tool's claims as listed under `_meta[TOOL_META_KEY]`, in the order facts, replay,
 * readOnly, sequential, barrier, resource, flow. `replay` is always `true`: it says the server
 * answers replay for the tool (toolwright's server answers `execution/facts` for every tool it
 * serves, with the tool's replay class, `unknown` included), as the Go seed marks every tool it
 * serves. A barrier is also listed `sequential: true` (a client that predates barriers is then
 * stricter, never looser); `resource` is `resourceOf` (none when sequential or a barrier).
 * `flow` is `{"readsUntrusted":true,"sends":true}` with the false fields dropped (its shape is an
 * open question of the contract). `task` is the task claim with its defaults applied
 * (`{"support":"optional","ttlMs":3600000,"pollIntervalMs":1000}`), for hosts of either era (the
 * 2026-07-28 era lists no `execution` field). False and empty fields are left out.
 */
export function toolMetaOf(tool: ContractTool): ToolMeta {
  const meta: ToolMeta = {};
  if (isFactual(tool)) meta.facts = true;
  meta.replay = true;
  if (isReadOnly(tool)) meta.readOnly = true;
  if (isSequential(tool) || isBarrier(tool)) meta.sequential = true;
  if (isBarrier(tool)) meta.barrier = true;
  const resource = resourceOf(tool);
  if (resource !== '') meta.resource = resource;
  const flow: { readsUntrusted?: true; sends?: true } = {};
  if (tool.flow?.readsUntrusted === true) flow.readsUntrusted = true;
  if (tool.flow?.sends === true) flow.sends = true;
  if (flow.readsUntrusted || flow.sends) meta.flow = flow;
  const task = taskTermsOf(tool);
  if (task.support !== 'forbidden')
    meta.task = {
      support: task.support,
      ttlMs: task.ttlMs,
      pollIntervalMs: task.pollIntervalMs,
      ...(task.startsAsCall ? { startsAsCall: true } : {}),
    };
  return meta;
}

/**
 * The MCP definition `tools/list` serves for a tool: `name`, `title` (the tool's, else its
 * annotations' title, when either is set), `description`, `inputSchema` verbatim (JSON Schema
 * with `$schema` and `$defs` kept; a tool without parameters gets
 * `{"type":"object","properties":{},"required":[]}`), `outputSchema` verbatim when the tool has
 * one, `annotations` (see `annotationsFor`), `execution: {"taskSupport": "required" | "optional"}`
 * for a tool with a task claim (the 2025-11-25 form; the SDK's 2026-07-28 codec removes
 * `execution`, which that era no longer defines: there the server decides per call, and the claim
 * is still in `_meta`), and `_meta[TOOL_META_KEY]` (see `toolMetaOf`). It
 * never copies or checks the schemas; `createServer` checks them once. A tool consumed from
 * another server (see `withListedDefinition`) is listed with that server's definition as it was
 * given, under the tool's own name.
 */
export function definitionOf(tool: ContractTool): McpTool {
  const listed = listedDefinitionOf(tool);
  if (listed !== undefined) return listed.name === tool.name ? listed : ({ ...listed, name: tool.name } as McpTool);
  const definition: Record<string, unknown> = { name: tool.name };
  const title = typeof tool.title === 'string' && tool.title !== '' ? tool.title : tool.annotations?.title;
  if (typeof title === 'string' && title !== '') definition.title = title;
  definition.description = typeof tool.description === 'string' ? tool.description : '';
  definition.inputSchema = tool.parameters ?? LISTED_EMPTY_SCHEMA;
  if (tool.outputSchema !== undefined) definition.outputSchema = tool.outputSchema;
  const annotations = annotationsFor(tool);
  if (annotations !== undefined) definition.annotations = annotations;
  const support = taskTermsOf(tool).support;
  if (support !== 'forbidden') definition.execution = { taskSupport: support };
  definition._meta = { [TOOL_META_KEY]: toolMetaOf(tool) };
  return definition as McpTool;
}
