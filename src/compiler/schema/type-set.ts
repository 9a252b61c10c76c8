/** The JSON Schema `type` names. `integer` is the whole-number part of `number`. */
export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

/** The order types are listed in when a schema allows more than one. */
const ORDER: readonly JsonType[] = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];

/**
 * A set of JSON types a value may have, kept normal: it never holds both `number` and
 * `integer` (`number` already includes the whole numbers). Sets are immutable values.
 */
export type TypeSet = ReadonlySet<JsonType>;

/** The set of each single type, made once (type sets are never changed). */
const SINGLE_TYPE_SETS: ReadonlyMap<JsonType, TypeSet> = new Map(ORDER.map((type) => [type, new Set([type])]));

/** Builds a normal type set from `types` (a set of one type is made once and shared). */
export function typeSet(...types: JsonType[]): TypeSet {
  if (types.length === 1) return SINGLE_TYPE_SETS.get(types[0]!) ?? new Set(types);
  const set = new Set(types);
  if (set.has('number')) set.delete('integer');
  return set;
}

/**
 * The types both `a` and `b` allow: `number` and `integer` meet in `integer`. An empty result
 * means no value has both types (for instance `@IsString()` with `@IsInt()`).
 */
export function intersectTypes(a: TypeSet, b: TypeSet): TypeSet {
  if (a === b) return a;
  const result: JsonType[] = [];
  for (const type of a) {
    if (b.has(type)) result.push(type);
    else if (type === 'number' && b.has('integer')) result.push('integer');
    else if (type === 'integer' && b.has('number')) result.push('integer');
  }
  return typeSet(...result);
}

/** The one type of each shared single-type set (read without making an iterator). */
const TYPE_OF_SINGLE_SET: ReadonlyMap<TypeSet, JsonType> = new Map(
  [...SINGLE_TYPE_SETS].map(([type, set]) => [set, type]),
);

/** The only type of a set of one type. */
function onlyTypeOf(types: TypeSet): JsonType {
  const shared = TYPE_OF_SINGLE_SET.get(types);
  if (shared !== undefined) return shared;
  for (const type of types) return type;
  throw new RangeError('onlyTypeOf: the type set is empty');
}

/** The `type` keyword's value: a single name, or the names in a fixed order. */
export function typeKeyword(types: TypeSet): string | string[] {
  if (types.size === 1) return onlyTypeOf(types);
  return ORDER.filter((type) => types.has(type));
}

/**
 * The `type` keyword's value for `types` and `null`: what `typeKeyword` answers for the set with
 * `null` added (adding `null` never changes how `number` and `integer` normalise), built without
 * making that set. Each call answers a fresh list.
 */
export function nullableTypeKeyword(types: TypeSet): string | string[] {
  if (types.size === 0 || (types.size === 1 && types.has('null'))) return 'null';
  if (types.size === 1) return [onlyTypeOf(types), 'null'];
  return ORDER.filter((type) => type === 'null' || types.has(type));
}

/** Whether `types` is exactly `{ only }`. */
export function isOnly(types: TypeSet | undefined, only: JsonType): boolean {
  return types !== undefined && types.size === 1 && types.has(only);
}
