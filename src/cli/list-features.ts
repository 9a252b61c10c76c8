import { isResourceTemplate, type ContractPrompt, type ContractResources } from '../contract/index.js';
import { promptDefinitionOf, resourceDefinitionOf, templateDefinitionOf } from '../mcp/index.js';
import { parseUriTemplate } from '../util/uri-template.js';

/**
 * The MCP definitions of what a module serves besides tools, as `resources/list`,
 * `resources/templates/list` and `prompts/list` list them.
 */
export interface FeatureDefinitions {
  readonly resources: Record<string, unknown>[];
  readonly resourceTemplates: Record<string, unknown>[];
  readonly prompts: Record<string, unknown>[];
}

/** The definitions of `resources` and `prompts` (what a template's `list` would enumerate is not run). */
export function featureDefinitionsOf(
  resources: ContractResources | undefined,
  prompts: readonly ContractPrompt[] | undefined,
): FeatureDefinitions {
  const all = resources ?? [];
  return {
    resources: all.filter((r) => !isResourceTemplate(r)).map((r) => resourceDefinitionOf(r as never)),
    resourceTemplates: all.filter(isResourceTemplate).map(templateDefinitionOf),
    prompts: (prompts ?? []).map(promptDefinitionOf),
  };
}

function describedLine(head: string, definition: Record<string, unknown>): string {
  const parts = [head];
  if (typeof definition.title === 'string') parts.push(`"${definition.title}"`);
  if (typeof definition.mimeType === 'string') parts.push(`(${definition.mimeType})`);
  const line = parts.join(' ');
  return typeof definition.description === 'string' ? `${line} — ${definition.description}` : line;
}

/**
 * A readable listing of a module's resources, templates and prompts, one block per kind after the
 * tools: each resource by URI and name, each template by URI template and name with its variables
 * and whether it lists resources or completes, each prompt by name with its arguments (`name*` for
 * a required one, with its description). Empty when the module serves none. Meant for people; its
 * layout is not a stable format.
 */
export function formatFeatures(
  resources: ContractResources | undefined,
  prompts: readonly ContractPrompt[] | undefined,
): string {
  const definitions = featureDefinitionsOf(resources, prompts);
  const blocks: string[] = [];
  if (definitions.resources.length > 0)
    blocks.push(
      [
        'resources:',
        ...definitions.resources.map((d) => `  ${describedLine(`${String(d.uri)} ${String(d.name)}`, d)}`),
      ].join('\n'),
    );
  if (definitions.resourceTemplates.length > 0) {
    const templates = (resources ?? []).filter(isResourceTemplate);
    blocks.push(
      [
        'resource templates:',
        ...definitions.resourceTemplates.map((d, index) => {
          const line = `  ${describedLine(`${String(d.uriTemplate)} ${String(d.name)}`, d)}`;
          const made = templates[index]!;
          const parsed = parseUriTemplate(made.uriTemplate);
          const variables = parsed.ok ? parsed.template.variables.map((v) => v.name).join(', ') : '';
          const extras = [
            `variables: ${variables}`,
            made.list === undefined ? '' : 'lists resources',
            made.complete === undefined ? '' : 'completes',
          ].filter((w) => w !== '');
          return `${line}\n    ${extras.join('; ')}`;
        }),
      ].join('\n'),
    );
  }
  if (definitions.prompts.length > 0)
    blocks.push(
      [
        'prompts:',
        ...definitions.prompts.map((d, index) => {
          const line = `  ${describedLine(String(d.name), d)}`;
          const args = (d.arguments as Array<Record<string, unknown>> | undefined) ?? [];
          const lines = args.map(
            (a) =>
              `    ${String(a.name)}${a.required === true ? '*' : ''}${typeof a.description === 'string' ? ` — ${a.description}` : ''}`,
          );
          if (prompts![index]!.complete !== undefined) lines.push('    completes');
          return [line, ...lines].join('\n');
        }),
      ].join('\n'),
    );
  return blocks.length === 0 ? '' : `${blocks.join('\n\n')}\n`;
}
