import type { ErrorObject } from 'ajv/dist/2020.js';
import type { ArgumentProblem } from '../../contract/index.js';

/**
 * Turns ajv errors into argument problems with JSON pointers and short messages a model reads:
 * `/limit: must be >= 1`, `/: must NOT have additional property "extra"`, `/note: must be string
 * or null`. Problems are kept in ajv's order; exact duplicates are dropped.
 *
 * A failed `anyOf`/`oneOf` (an optional nested object is `anyOf: [{object}, {type: "null"}]`) is
 * folded: when the value's type matches no branch, its problems become one, `/inner: must be
 * object or null`; when a branch of the right type failed deeper, only those deeper problems are
 * kept (`/inner/n: must be >= 1`), without the other branches' type mismatches or ajv's
 * `must match a schema in anyOf` summary. A type mismatch next to an `enum` or `const` problem
 * at the same place is left out (`/level: must be one of 1, 2` says it all).
 */
export function problemsOf(errors: readonly ErrorObject[] | null | undefined): ArgumentProblem[] {
  const problems: ArgumentProblem[] = [];
  const seen = new Set<string>();
  for (const problem of foldAlternatives(errors ?? [])) {
    const key = `${problem.pointer}\u0000${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return problems;
}

/**
 * The problems of a failed validation (see `problemsOf`) on one line, each as
 * `<pointer>: <message>`, joined by `; `: `/count: must be integer; /: must have required
 * property "name"`. Internal: the text after a caller's own prefix (`the result does not match
 * its output schema: ...`); not exported from the validation index.
 */
export function problemsText(errors: readonly ErrorObject[] | null | undefined): string {
  return problemsOf(errors)
    .map((problem) => `${problem.pointer}: ${problem.message}`)
    .join('; ');
}

function isAlternative(error: ErrorObject): boolean {
  return error.keyword === 'anyOf' || error.keyword === 'oneOf';
}

/** Maps errors to problems, folding each failed `anyOf`/`oneOf` with the errors of its branches. */
function foldAlternatives(errors: readonly ErrorObject[]): ArgumentProblem[] {
  const skipped = new Set<number>();
  const replaced = new Map<number, ArgumentProblem>();
  errors.forEach((alternative, at) => {
    if (!isAlternative(alternative) || skipped.has(at)) return;
    const prefix = `${alternative.schemaPath}/`;
    const branchErrors: number[] = [];
    // The alternative's own schemaPath lacks the trailing `/`, so it is never one of its branches' errors.
    errors.forEach((error, index) => {
      if (error.schemaPath.startsWith(prefix)) branchErrors.push(index);
    });
    const typeMismatches = branchErrors.filter(
      (index) => errors[index]!.keyword === 'type' && errors[index]!.instancePath === alternative.instancePath,
    );
    if (typeMismatches.length === branchErrors.length) {
      // The value's type matches no branch: one problem naming every type allowed.
      const types: string[] = [];
      for (const index of typeMismatches) {
        const type = (errors[index]!.params as { type?: unknown }).type;
        for (const each of Array.isArray(type) ? type : String(type).split(','))
          if (!types.includes(String(each))) types.push(String(each));
      }
      for (const index of branchErrors) skipped.add(index);
      if (types.length > 0)
        replaced.set(at, {
          pointer: alternative.instancePath === '' ? '/' : alternative.instancePath,
          message: `must be ${listed(types)}`,
        });
      return;
    }
    // A branch of the right type failed deeper: keep its problems only.
    for (const index of typeMismatches) skipped.add(index);
    skipped.add(at);
    foldDiscriminated(errors, alternative, branchErrors, skipped, replaced);
  });
  // An enum or const says more than a type mismatch at the same place: `must be one of 1, 2`.
  const listedValues = new Set(
    errors.filter((e) => e.keyword === 'enum' || e.keyword === 'const').map((e) => e.instancePath),
  );
  errors.forEach((error, index) => {
    if (error.keyword === 'type' && listedValues.has(error.instancePath)) skipped.add(index);
  });
  const problems: ArgumentProblem[] = [];
  errors.forEach((error, index) => {
    if (skipped.has(index)) return;
    problems.push(replaced.get(index) ?? problemOf(error));
  });
  return problems;
}

/**
 * Folds a discriminated union (each branch fixes one property with `const`, as `@UnionOf({
 * discriminator })` makes): the branches whose discriminator does not match the value are not
 * the branch meant, so their problems are dropped when another branch's discriminator matched;
 * when none matched, the problem is one line at the discriminator, `/shape/kind: must be one of
 * "circle", "square"`.
 */
function foldDiscriminated(
  errors: readonly ErrorObject[],
  alternative: ErrorObject,
  branchErrors: readonly number[],
  skipped: Set<number>,
  replaced: Map<number, ArgumentProblem>,
): void {
  const branchOf = (index: number): string =>
    errors[index]!.schemaPath.slice(alternative.schemaPath.length + 1).split('/')[0]!;
  const isDiscriminatorMiss = (error: ErrorObject): boolean =>
    error.keyword === 'const' &&
    error.instancePath.startsWith(`${alternative.instancePath}/`) &&
    !error.instancePath.slice(alternative.instancePath.length + 1).includes('/');
  const missed = new Map<string, ErrorObject>();
  for (const index of branchErrors)
    if (isDiscriminatorMiss(errors[index]!)) missed.set(branchOf(index), errors[index]!);
  // Some branch's discriminator matched (or none is a discriminated branch: nothing missed, nothing
  // skipped; `branchErrors` is never empty here, the caller has a branch error that is no type mismatch).
  const branches = new Set(branchErrors.map(branchOf));
  if (missed.size < branches.size) {
    for (const index of branchErrors) if (missed.has(branchOf(index))) skipped.add(index);
    return;
  }
  const first = [...missed.values()][0]!;
  if ([...missed.values()].some((error) => error.instancePath !== first.instancePath)) return;
  const values = [...missed.values()].map((error) =>
    JSON.stringify((error.params as { allowedValue?: unknown }).allowedValue),
  );
  const firstIndex = branchErrors.find((index) => errors[index] === first)!;
  for (const index of branchErrors) skipped.add(index);
  skipped.delete(firstIndex);
  replaced.set(firstIndex, { pointer: first.instancePath, message: `must be one of ${values.join(', ')}` });
}

function listed(types: readonly string[]): string {
  return types.length === 1 ? types[0]! : `${types.slice(0, -1).join(', ')} or ${types[types.length - 1]}`;
}

function problemOf(error: ErrorObject): ArgumentProblem {
  const pointer = error.instancePath === '' ? '/' : error.instancePath;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return { pointer, message: `must NOT have additional property ${JSON.stringify(params.additionalProperty)}` };
    case 'required':
      return { pointer, message: `must have required property ${JSON.stringify(params.missingProperty)}` };
    case 'enum':
      return {
        pointer,
        message: `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
      };
    case 'const':
      return { pointer, message: `must be ${JSON.stringify(params.allowedValue)}` };
    case 'type': {
      const types = Array.isArray(params.type) ? (params.type as string[]) : String(params.type).split(',');
      return { pointer, message: `must be ${listed(types)}` };
    }
    default:
      return { pointer, message: error.message ?? `fails ${error.keyword}` };
  }
}
