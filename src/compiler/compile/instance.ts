import type { ContractIssue } from '../../contract/index.js';
import type { Class } from '../../decorators/index.js';
import { kindOf, errorText } from '../../util/describe.js';
import { isThenable } from '../../contract/internal.js';

/**
 * Makes the instance of a tool class with `resolve` (default `new cls()`), or records a
 * `resolve-failed` issue and returns `undefined` when it throws, returns a Promise (compile is
 * synchronous) or returns something that is not an object.
 */
export function instanceOf(
  cls: Function,
  className: string,
  options: { readonly resolve?: (cls: Class) => object },
  issues: ContractIssue[],
): object | undefined {
  let instance: unknown;
  try {
    instance = options.resolve === undefined ? new (cls as new () => object)() : options.resolve(cls as Class);
  } catch (err) {
    return failed(
      issues,
      className,
      `${options.resolve === undefined ? `new ${className}()` : 'resolve()'} threw while making the instance: ${errorText(err)}; fix the ${options.resolve === undefined ? 'constructor, or pass compile() a resolve function or an instance' : 'resolve function or the constructor'}`,
    );
  }
  if (isThenable(instance)) {
    return failed(
      issues,
      className,
      'resolve() returned a Promise, but compile() is synchronous: await the instance first and pass it to compile() in place of the class',
    );
  }
  if (typeof instance !== 'object' || instance === null)
    return failed(
      issues,
      className,
      `resolve() returned ${kindOf(instance)}, not an instance: return an instance of ${className}`,
    );
  return instance;
}

/** Records the `resolve-failed` issue of `className` and answers `undefined`. */
function failed(issues: ContractIssue[], className: string, why: string): undefined {
  issues.push({ code: 'resolve-failed', className, message: `class ${className}: ${why}` });
  return undefined;
}
