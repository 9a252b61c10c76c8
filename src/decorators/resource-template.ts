import { cleanText } from '../util/clean-text.js';
import { DecoratorError } from '../contract/index.js';
import { parseUriTemplate } from '../util/uri-template.js';
import { checkOnApply, classTarget, optionalString, plainOptions } from './guards.js';
import { setResourceTemplateOptions, type ResourceTemplateOptions } from './feature-metadata.js';
import {
  checkAnnotations,
  checkOneKind,
  optionalClass,
  optionalMimeType,
  optionalName,
  shown,
} from './feature-options.js';

const DECORATOR = '@ResourceTemplate()';
const KEYS = ['uriTemplate', 'name', 'title', 'description', 'mimeType', 'annotations', 'args'] as const;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

function checkOptions(options: unknown): ResourceTemplateOptions {
  const given = plainOptions(DECORATOR, options, KEYS);
  const template = given.uriTemplate;
  if (typeof template !== 'string')
    throw new DecoratorError(
      `${DECORATOR}: "uriTemplate" must be an RFC 6570 URI template such as "users://{id}/profile", got ${shown(template)}`,
    );
  const parsed = parseUriTemplate(template);
  if (!parsed.ok)
    throw new DecoratorError(
      `${DECORATOR}: "uriTemplate" ${JSON.stringify(template)} is not a valid RFC 6570 URI template: ${parsed.problem}`,
    );
  if (parsed.template.variables.length === 0)
    throw new DecoratorError(
      `${DECORATOR}: "uriTemplate" ${JSON.stringify(template)} has no variable: use @StaticResource({ uri: ${JSON.stringify(template)} }) for a resource with a fixed URI`,
    );
  if (!SCHEME.test(template))
    throw new DecoratorError(
      `${DECORATOR}: "uriTemplate" ${JSON.stringify(template)} must start with a URI scheme, such as "file:///{+path}" or "users://{id}"`,
    );
  optionalName(DECORATOR, given.name);
  optionalString(DECORATOR, 'title', given.title);
  optionalString(DECORATOR, 'description', given.description);
  optionalMimeType(DECORATOR, given.mimeType);
  optionalClass(DECORATOR, 'args', given.args);
  const annotations = checkAnnotations(DECORATOR, given.annotations);
  return {
    ...(given as unknown as ResourceTemplateOptions),
    ...(typeof given.description === 'string' ? { description: cleanText(given.description) } : {}),
    ...(annotations === undefined ? {} : { annotations }),
  };
}

/**
 * Marks a class as an MCP resource template: every URI that matches the RFC 6570 `uriTemplate`
 * is one of its resources (`resources/templates/list` lists it, `resources/read` reads a
 * matching URI). The class must have a `read(vars, ctx)` method; `args` names the class of the
 * variables (one property per variable of the template, typed and validated like a tool's
 * arguments; checked by `compileResources`); an optional `list(ctx)` method enumerates concrete
 * resources for `resources/list`, and `@Complete('variable')` methods complete variables.
 * `name` defaults to the class name in snake_case without a trailing `Template` or `Resource`.
 * Throws a `DecoratorError` naming the class, as the class is defined, for a template that does
 * not parse (naming the problem), has no variable (use `@StaticResource`) or no scheme, a bad
 * option, a non-class target, or a class already marked as a tool, a resource or a prompt.
 */
export function ResourceTemplate(options: ResourceTemplateOptions): ClassDecorator {
  const checked = checkOnApply(DECORATOR, () => checkOptions(options));
  return (...args: unknown[]) => {
    const cls = classTarget(DECORATOR, args);
    const given = checked(args);
    checkOneKind(DECORATOR, cls, 'resource-template');
    setResourceTemplateOptions(cls, given);
  };
}

/** The plain-function twin of `@ResourceTemplate()`. */
export function defineResourceTemplate(cls: Function, options: ResourceTemplateOptions): void {
  ResourceTemplate(options)(cls);
}
