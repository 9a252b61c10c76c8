import { isFactual, resourceOf, type ContractTool, type JsonObject } from '../../contract/index.js';
import type { ResidualConstraint } from '../schema/index.js';
import { CLAIM_KEYS } from './contract-keys.js';
import { compiledInfoOf } from './info.js';
import { schemaLines } from './schema-text.js';

/** Everything worth knowing about one tool while debugging a tool set. */
export interface ToolInspection {
  readonly name: string;
  readonly title: string | undefined;
  readonly description: string;
  /** `compiled` for a tool `compile` built from a class, `hand-built` otherwise. */
  readonly origin: 'compiled' | 'hand-built';
  readonly className: string | undefined;
  readonly argsClass: string | undefined;
  readonly resultClass: string | undefined;
  readonly parameters: JsonObject | undefined;
  readonly outputSchema: JsonObject | undefined;
  /** Constraints enforced at run time by class-validator because the schema cannot express them. */
  readonly residual: readonly ResidualConstraint[];
  /** The deepest nesting of arguments a compiled tool accepts; `undefined` for a hand-built tool. */
  readonly maxDepth: number | undefined;
  /** The claims, as a host reads them: only the ones the tool states. */
  readonly claims: Readonly<Record<string, unknown>>;
}

/**
 * Describes one tool: where it came from, its schemas, its residual constraints and its claims. It
 * never runs the tool.
 */
export function inspectTool(tool: ContractTool): ToolInspection {
  const info = compiledInfoOf(tool);
  const claims: Record<string, unknown> = {};
  for (const key of CLAIM_KEYS) {
    const value = tool[key];
    if (value === undefined || value === false || value === '') continue;
    claims[key] =
      key === 'replay' && typeof value === 'function'
        ? '(computed per call)'
        : key === 'requires'
          ? (value as readonly unknown[]).length
          : value;
  }
  if (isFactual(tool)) claims.facts = true;
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    origin: info === undefined ? 'hand-built' : 'compiled',
    className: info?.className,
    argsClass: info?.argsClass,
    resultClass: info?.resultClass,
    parameters: tool.parameters,
    outputSchema: tool.outputSchema,
    residual: info?.residual ?? [],
    maxDepth: info?.maxDepth,
    claims,
  };
}

/** `inspectTool` for every tool of a set, in order. */
export function explainTools(tools: readonly ContractTool[]): ToolInspection[] {
  return tools.map(inspectTool);
}

function indent(textBlock: string, by: string): string {
  return textBlock
    .split('\n')
    .map((line) => by + line)
    .join('\n');
}

function claimWords(tool: ContractTool): string[] {
  const words: string[] = [];
  const a = tool.annotations;
  if (a !== undefined) {
    for (const key of ['readOnly', 'destructive', 'idempotent', 'openWorld'] as const)
      if (a[key] === true) words.push(key);
    if (a.title !== undefined) words.push(`title=${JSON.stringify(a.title)}`);
  }
  if (tool.barrier === true) words.push('barrier');
  if (tool.sequential === true) words.push('sequential');
  const resource = resourceOf(tool);
  if (resource !== '') words.push(`resource=${resource}`);
  if (tool.flow?.readsUntrusted === true) words.push('readsUntrusted');
  if (tool.flow?.sends === true) words.push('sends');
  if (tool.replay !== undefined) words.push(`replay=${typeof tool.replay === 'function' ? '(per call)' : tool.replay}`);
  if (isFactual(tool)) words.push('facts');
  if (tool.timeoutMs !== undefined) words.push(`timeout=${tool.timeoutMs}ms`);
  if (tool.maxOutputChars !== undefined) words.push(`maxOutputChars=${tool.maxOutputChars}`);
  if (tool.requires !== undefined && tool.requires.length > 0)
    words.push(`requires=${tool.requires.map((r) => r.capabilities.join('+')).join(',')}`);
  return words;
}

/** The options of `formatDefinitions`. */
export interface FormatOptions {
  /** `summary` (default): one line per property; `json`: the schemas as indented JSON. */
  readonly schemas?: 'summary' | 'json';
}

function schemaBlock(schema: JsonObject, how: 'summary' | 'json'): string {
  return how === 'json' ? indent(JSON.stringify(schema, null, 2), '    ') : schemaLines(schema, '    ').join('\n');
}

/**
 * A readable listing of a tool set, one block per tool: the name and description, the title,
 * the claims in words (`readOnly, resource=fs:root, facts`; `none stated` when there are none),
 * the arguments (with the arguments class's name), the result when there is an output schema,
 * and the residual constraints class-validator checks at run time. Schemas are summarised one
 * line per property (`path?: string, length ..4096 — Where to look`) unless `schemas: 'json'`.
 * Meant for people (samples, debugging); its layout is not a stable format.
 */
export function formatDefinitions(tools: readonly ContractTool[], options: FormatOptions = {}): string {
  const how = options.schemas ?? 'summary';
  const blocks = tools.map((tool) => {
    const seen = inspectTool(tool);
    const lines = [`${tool.name} — ${tool.description}`];
    if (tool.title !== undefined) lines.push(`  title: ${tool.title}`);
    const claims = claimWords(tool);
    lines.push(`  claims: ${claims.length === 0 ? 'none stated' : claims.join(', ')}`);
    lines.push(`  arguments${seen.argsClass === undefined ? '' : ` (${seen.argsClass})`}:`);
    lines.push(schemaBlock(tool.parameters ?? { type: 'object', properties: {} }, how));
    if (tool.outputSchema !== undefined) {
      lines.push(`  result${seen.resultClass === undefined ? '' : ` (${seen.resultClass})`}:`);
      lines.push(schemaBlock(tool.outputSchema, how));
    }
    if (seen.residual.length > 0) {
      lines.push(
        `  checked at run time by class-validator: ${seen.residual.map((r) => `${r.className}.${r.property} ${r.constraint}`).join(', ')}`,
      );
    }
    return lines.join('\n');
  });
  return blocks.join('\n\n') + '\n';
}
