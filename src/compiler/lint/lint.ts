import { isJsonObject, type ContractTool, type JsonObject } from '../../contract/index.js';
import { kindOf } from '../../util/describe.js';
import type { SchemaProfile } from '../profile/index.js';
import { LINT_RULES } from './rules/index.js';
import { LINT_PROVIDERS, type LintFinding, type LintProvider, type LintRule, type LintTarget } from './types.js';
import { walkSchema } from './walk.js';

/** The options of `lintTools` and `lintSchema`. */
export interface LintOptions {
  /** The providers whose rules apply (default: all of them). */
  readonly providers?: readonly LintProvider[];
  /**
   * The profile the schemas were listed with, when the providers are not named: the rules that
   * profile leaves to the host by design are then skipped (see `PROFILE_LEAVES`). With
   * `providers` named, every rule of those providers applies, whatever the profile.
   */
  readonly profile?: SchemaProfile;
}

/**
 * The rules a profile's listing breaks by design, which a lint of that listing skips unless the
 * providers are named: `portable` keeps `additionalProperties: false` (OpenAI strict and
 * Anthropic strict require it), which raw Gemini refuses, so it serves hosts whose Gemini adapter
 * strips the keyword (as the AI SDK's does); hosts that hand schemas to Gemini as they are take
 * the `gemini` profile. No other profile leaves a rule.
 */
export const PROFILE_LEAVES: Readonly<Partial<Record<SchemaProfile, readonly string[]>>> = Object.freeze({
  portable: Object.freeze(['gemini/additional-properties']),
});

/** Which rules check which schema: model providers see only a tool's input schema; MCP covers both. */
function appliesTo(rule: LintRule, role: 'input' | 'output'): boolean {
  return role === 'input' || rule.provider === 'mcp';
}

function providersOf(options: LintOptions): ReadonlySet<LintProvider> {
  const providers = options.providers ?? LINT_PROVIDERS;
  if (!Array.isArray(providers))
    throw new TypeError(`lint: "providers" must be an array of ${LINT_PROVIDERS.join(', ')}, got ${kindOf(providers)}`);
  for (const provider of providers) {
    if (!LINT_PROVIDERS.includes(provider))
      throw new TypeError(`lint: unknown provider ${JSON.stringify(provider)} (known: ${LINT_PROVIDERS.join(', ')})`);
  }
  return new Set(providers);
}

/**
 * Checks one schema against the documented rules of the chosen providers and returns every
 * finding, in rule order then schema order: rule id, provider, tool, JSON pointer, message, fix
 * and the documentation the rule is taken from. Model providers receive a tool's input schema
 * only, so an output schema is checked against the MCP rules alone. Never changes the schema;
 * throws a `TypeError` only for bad options.
 */
export function lintSchema(
  schema: JsonObject,
  target: { readonly tool: string; readonly role: 'input' | 'output' },
  options: LintOptions = {},
): LintFinding[] {
  const providers = providersOf(options);
  const left =
    options.providers === undefined && options.profile !== undefined ? PROFILE_LEAVES[options.profile] : undefined;
  const full: LintTarget = { ...target, document: schema };
  const findings: LintFinding[] = [];
  for (const rule of LINT_RULES) {
    if (!providers.has(rule.provider) || !appliesTo(rule, target.role)) continue;
    if (left?.includes(rule.id) === true) continue;
    const add = (pointer: string, violation: { message: string; fix: string; at?: string }): void => {
      findings.push({
        rule: rule.id,
        provider: rule.provider,
        tool: target.tool,
        schema: target.role === 'input' ? 'inputSchema' : 'outputSchema',
        pointer: `${pointer}${violation.at ?? ''}`,
        message: violation.message,
        fix: violation.fix,
        citation: rule.citation,
      });
    };
    if (rule.checkTool !== undefined)
      for (const violation of rule.checkTool({ name: target.tool }, full)) add('', violation);
    if (rule.check !== undefined)
      walkSchema(schema, (node) => {
        for (const violation of rule.check!(node, full)) add(node.pointer, violation);
      });
  }
  return findings;
}

/** The schema a host lists for a tool without arguments. */
const EMPTY_ARGUMENTS: JsonObject = { type: 'object', properties: {}, additionalProperties: false };

/**
 * Lints every tool's input schema (`parameters`, or the empty-object schema a host lists for a
 * tool without one) and output schema. Returns the findings of all tools, in tool order.
 */
export function lintTools(tools: readonly ContractTool[], options: LintOptions = {}): LintFinding[] {
  if (!Array.isArray(tools)) throw new TypeError(`lintTools() takes an array of contract tools, got ${kindOf(tools)}`);
  const findings: LintFinding[] = [];
  for (const tool of tools) {
    findings.push(
      ...lintSchema(
        isJsonObject(tool.parameters) ? tool.parameters : EMPTY_ARGUMENTS,
        { tool: tool.name, role: 'input' },
        options,
      ),
    );
    if (isJsonObject(tool.outputSchema))
      findings.push(...lintSchema(tool.outputSchema, { tool: tool.name, role: 'output' }, options));
  }
  return findings;
}

/**
 * The findings as text, one per line: `<tool> <schema><pointer>: [<rule>] <message>; fix: <fix>`,
 * then a summary line (`3 findings (openai-strict 2, gemini 1)`, or `no findings`).
 */
export function formatFindings(findings: readonly LintFinding[]): string {
  if (findings.length === 0) return 'no findings\n';
  const lines = findings.map(
    (f) => `${f.tool} ${f.schema}${f.pointer === '' ? '' : ` ${f.pointer}`}: [${f.rule}] ${f.message}; fix: ${f.fix}`,
  );
  const counts = new Map<string, number>();
  for (const f of findings) counts.set(f.provider, (counts.get(f.provider) ?? 0) + 1);
  const summary = [...counts].map(([provider, count]) => `${provider} ${count}`).join(', ');
  return `${lines.join('\n')}\n${findings.length} finding${findings.length === 1 ? '' : 's'} (${summary})\n`;
}
