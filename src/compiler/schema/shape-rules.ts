import type { ContractIssue } from '../../contract/index.js';
import type { ShapeOptions, ValueType, ValueTypeRef } from '../../decorators/index.js';
import { errorText } from '../../util/describe.js';
import * as messages from './messages.js';
import { isDtoClass, primitiveTypesOf } from './type-resolution.js';
import { isOnly, typeSet } from './type-set.js';
import { ValueRules, type Variants } from './value-rules.js';

/** Where a `@MapOf`/`@UnionOf` property is, for messages. */
export interface ShapeInput {
  readonly className: string;
  readonly property: string;
  /** The recorded `design:type` (`Array` puts the shape on the items). */
  readonly designType: unknown;
  readonly issues: ContractIssue[];
}

/**
 * Resolves a value type reference: a constructor or class as it is, an arrow function called
 * (once, here). Returns `undefined` and reports an issue when the arrow throws or returns no type.
 */
export function resolveValueType(ref: ValueTypeRef, input: ShapeInput, decorator: string): ValueType | undefined {
  if (typeof ref === 'function' && ref.prototype !== undefined) return ref;
  let resolved: unknown;
  try {
    resolved = (ref as () => unknown)();
  } catch (error) {
    input.issues.push(
      messages.shapeTypeProblem(
        input.className,
        input.property,
        decorator,
        `its type function threw (${errorText(error)})`,
      ),
    );
    return undefined;
  }
  if (primitiveTypesOf(resolved) !== undefined || isDtoClass(resolved)) return resolved as ValueType;
  input.issues.push(
    messages.shapeTypeProblem(
      input.className,
      input.property,
      decorator,
      `its type function returned ${typeof resolved === 'function' ? resolved.name || 'an anonymous function' : String(resolved)}, which is no class`,
    ),
  );
  return undefined;
}

/** The rules of one value of the given type: a JSON primitive (`Date` is a date-time string) or a nested DTO. */
function rulesOfType(type: ValueType): ValueRules {
  const rules = new ValueRules();
  const primitive = primitiveTypesOf(type);
  if (primitive !== undefined) {
    rules.types = primitive.types;
    if (primitive.format !== undefined) rules.addFormat(primitive.format);
  } else {
    rules.nested = type;
  }
  return rules;
}

/**
 * Applies a `@MapOf`/`@UnionOf` shape to a property's rules: on the items when the property is
 * an array (by its decorators or its `design:type`), else on the value itself. A map becomes an
 * object whose values follow the value type's rules; a union keeps the rules of each member; a
 * discriminated union becomes the subtypes of `Variants`. Problems (a type function that
 * throws) are reported and leave the value unconstrained.
 */
export function applyShape(rules: ValueRules, shape: ShapeOptions, input: ShapeInput): void {
  const isArray = rules.types === undefined ? input.designType === Array : isOnly(rules.types, 'array');
  if (isArray) rules.types ??= typeSet('array');
  const target = isArray ? rules.itemRules() : rules;
  switch (shape.kind) {
    case 'map': {
      const value = resolveValueType(shape.value, input, '@MapOf()');
      target.requireTypes(typeSet('object'), '@MapOf()');
      target.mapValues = value === undefined ? new ValueRules() : rulesOfType(value);
      return;
    }
    case 'union': {
      const members: ValueRules[] = [];
      for (const ref of shape.members) {
        const type = resolveValueType(ref, input, '@UnionOf()');
        if (type !== undefined) members.push(rulesOfType(type));
      }
      target.unionMembers = members;
      return;
    }
    case 'discriminated': {
      const cases: { name: string; cls: Function }[] = [];
      for (const [name, ref] of shape.cases) {
        const type = resolveValueType(ref, input, '@UnionOf()');
        if (type !== undefined && isDtoClass(type)) cases.push({ name, cls: type });
      }
      const variants: Variants = { property: shape.discriminator, cases };
      target.variants = variants;
      return;
    }
  }
}
