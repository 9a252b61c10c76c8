/**
 * The classes that take part in a cycle of references (a class holding itself, directly or
 * through others): these, and only these, go into `$defs`. Tarjan's algorithm: linear in the
 * number of classes and references.
 */
export function classesInCycles(references: ReadonlyMap<Function, readonly Function[]>): Set<Function> {
  const index = new Map<Function, number>();
  const lowLink = new Map<Function, number>();
  const onStack = new Set<Function>();
  const stack: Function[] = [];
  const inCycles = new Set<Function>();
  let counter = 0;

  const visit = (node: Function): void => {
    index.set(node, counter);
    lowLink.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of references.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        lowLink.set(node, Math.min(lowLink.get(node)!, lowLink.get(next)!));
      } else if (onStack.has(next)) {
        lowLink.set(node, Math.min(lowLink.get(node)!, index.get(next)!));
      }
    }
    if (lowLink.get(node) !== index.get(node)) return;
    const component: Function[] = [];
    let member: Function;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    const selfReferencing = (references.get(node) ?? []).includes(node);
    if (component.length > 1 || selfReferencing) for (const each of component) inCycles.add(each);
  };

  for (const node of references.keys()) if (!index.has(node)) visit(node);
  return inCycles;
}

/**
 * A `$defs` name for each class, in the given order: the class name with characters outside
 * `A-Za-z0-9_` replaced by `_`, and `_2`, `_3`, ... appended when two different classes share a
 * name (two `Node` classes from different modules get `Node` and `Node_2`).
 */
export function definitionNames(classes: readonly Function[]): Map<Function, string> {
  const names = new Map<Function, string>();
  const used = new Set<string>();
  for (const cls of classes) {
    const base = (cls.name || 'Anonymous').replace(/[^A-Za-z0-9_]/g, '_');
    let name = base;
    for (let n = 2; used.has(name); n++) name = `${base}_${n}`;
    used.add(name);
    names.set(cls, name);
  }
  return names;
}
