import type {
  ContractPrompt,
  ContractResource,
  ContractResourceTemplate,
  ListedResource,
  PromptResult,
  ResourceContent,
} from '../../contract/index.js';
import { contentBlockOf } from './content.js';

/*
 * The MCP wire forms of resources, resource templates and prompts: how they are listed, and
 * what `resources/read` and `prompts/get` answer. A value consumed from another server (see
 * `withListedDefinition`) is listed with that server's own definition, under its own name.
 */

/** A listed definition as another server sent it (kept by the consumer), by the value it belongs to. */
const listed = new WeakMap<object, Record<string, unknown>>();

/**
 * Marks `made` (a consumed resource, template or prompt) to be listed with `definition`, the
 * upstream's own (its `_meta`, `icons` and every other member kept), under `made`'s name.
 * Internal to the MCP edge.
 */
export function withListedDefinition<T extends object>(made: T, definition: Record<string, unknown>): T {
  listed.set(made, definition);
  return made;
}

/** The upstream definition `withListedDefinition` kept for `made`, if any. */
export function listedDefinitionOf(made: object): Record<string, unknown> | undefined {
  return listed.get(made);
}

function copyOptional(target: Record<string, unknown>, source: object, keys: readonly string[]): void {
  for (const key of keys) {
    const value = (source as Record<string, unknown>)[key];
    if (value !== undefined) target[key] = value;
  }
}

/** The definition `resources/list` serves for a resource with a fixed URI (or one a template listed). */
export function resourceDefinitionOf(resource: ContractResource | ListedResource): Record<string, unknown> {
  const kept = listedDefinitionOf(resource);
  if (kept !== undefined) return { ...kept, name: resource.name };
  const definition: Record<string, unknown> = { uri: resource.uri, name: resource.name };
  copyOptional(definition, resource, ['title', 'description', 'mimeType', 'size', 'annotations']);
  return definition;
}

/** The definition `resources/templates/list` serves for a template. */
export function templateDefinitionOf(template: ContractResourceTemplate): Record<string, unknown> {
  const kept = listedDefinitionOf(template);
  if (kept !== undefined) return { ...kept, name: template.name };
  const definition: Record<string, unknown> = { uriTemplate: template.uriTemplate, name: template.name };
  copyOptional(definition, template, ['title', 'description', 'mimeType', 'annotations']);
  return definition;
}

/** The definition `prompts/list` serves for a prompt: `arguments` left out when it takes none. */
export function promptDefinitionOf(prompt: ContractPrompt): Record<string, unknown> {
  const kept = listedDefinitionOf(prompt);
  if (kept !== undefined) return { ...kept, name: prompt.name };
  const definition: Record<string, unknown> = { name: prompt.name };
  copyOptional(definition, prompt, ['title']);
  definition.description = prompt.description;
  if (prompt.arguments !== undefined && prompt.arguments.length > 0)
    definition.arguments = prompt.arguments.map((argument) => {
      const listedArgument: Record<string, unknown> = { name: argument.name };
      copyOptional(listedArgument, argument, ['title', 'description', 'required']);
      return listedArgument;
    });
  return definition;
}

/** The result of `resources/read`: the contents, each `{ uri, mimeType?, text }` or `{ uri, mimeType?, blob }`. */
export function readResultOf(contents: readonly ResourceContent[]): Record<string, unknown> {
  return {
    contents: contents.map((content) => {
      const wire: Record<string, unknown> = { uri: content.uri };
      if (content.mimeType !== undefined) wire.mimeType = content.mimeType;
      if ('text' in content) wire.text = content.text;
      else wire.blob = content.blob;
      return wire;
    }),
  };
}

/** The result of `prompts/get`: the description when given, and each message with its content as MCP content. */
export function promptResultWireOf(result: PromptResult): Record<string, unknown> {
  const wire: Record<string, unknown> = {};
  if (result.description !== undefined) wire.description = result.description;
  wire.messages = result.messages.map((message) => ({ role: message.role, content: contentBlockOf(message.content) }));
  return wire;
}
