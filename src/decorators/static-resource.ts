import { cleanText } from '../util/clean-text.js';
import { DecoratorError, RESOURCE_URI_PATTERN } from '../contract/index.js';
import { parseUriTemplate } from '../util/uri-template.js';
import { checkOnApply, classTarget, optionalString, plainOptions } from './guards.js';
import { setStaticResourceOptions, type StaticResourceOptions } from './feature-metadata.js';
import { checkAnnotations, checkOneKind, optionalMimeType, optionalName, shown } from './feature-options.js';

const DECORATOR = '@StaticResource()';
const KEYS = ['uri', 'name', 'title', 'description', 'mimeType', 'size', 'annotations'] as const;

function checkOptions(options: unknown): StaticResourceOptions {
  const given = plainOptions(DECORATOR, options, KEYS);
  const uri = given.uri;
  if (typeof uri !== 'string' || !RESOURCE_URI_PATTERN.test(uri))
    throw new DecoratorError(
      `${DECORATOR}: "uri" must be an absolute URI such as "file:///notes.txt" or "config://app", got ${shown(uri)}`,
    );
  const parsed = parseUriTemplate(uri);
  if (parsed.ok && parsed.template.variables.length > 0)
    throw new DecoratorError(
      `${DECORATOR}: "uri" ${JSON.stringify(uri)} is a URI template (it has {${parsed.template.variables[0]!.name}}): use @ResourceTemplate({ uriTemplate: ${JSON.stringify(uri)} }) for a family of resources`,
    );
  optionalName(DECORATOR, given.name);
  optionalString(DECORATOR, 'title', given.title);
  optionalString(DECORATOR, 'description', given.description);
  optionalMimeType(DECORATOR, given.mimeType);
  const size = given.size;
  if (size !== undefined && (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0))
    throw new DecoratorError(`${DECORATOR}: "size" must be a whole number of bytes (0 or more), got ${shown(size)}`);
  const annotations = checkAnnotations(DECORATOR, given.annotations);
  return {
    ...(given as unknown as StaticResourceOptions),
    ...(typeof given.description === 'string' ? { description: cleanText(given.description) } : {}),
    ...(annotations === undefined ? {} : { annotations }),
  };
}

/**
 * Marks a class as an MCP resource with a fixed URI (`resources/list` lists it, `resources/read`
 * reads it). The class must have a `read(ctx)` method returning the content: text, bytes, or
 * `{ text }` / `{ blob }` pieces (checked by `compileResources`). `name` defaults to the class
 * name in snake_case without a trailing `Resource`. Not to be confused with `@Resource(key)`,
 * the scheduling claim of tools. Throws a `DecoratorError` naming the class, as the class is
 * defined, for a `uri` that is not an absolute URI (or is a URI template: use
 * `@ResourceTemplate`), a bad option, a non-class target, or a class already marked as a tool,
 * a template or a prompt.
 */
export function StaticResource(options: StaticResourceOptions): ClassDecorator {
  const checked = checkOnApply(DECORATOR, () => checkOptions(options));
  return (...args: unknown[]) => {
    const cls = classTarget(DECORATOR, args);
    const given = checked(args);
    checkOneKind(DECORATOR, cls, 'static-resource');
    setStaticResourceOptions(cls, given);
  };
}

/** The plain-function twin of `@StaticResource()`. */
export function defineStaticResource(cls: Function, options: StaticResourceOptions): void {
  StaticResource(options)(cls);
}
