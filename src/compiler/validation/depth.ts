import type { ArgumentProblem } from '../../contract/index.js';

/** The nesting limit a compiled tool applies to its arguments unless told otherwise. */
export const DEFAULT_MAX_DEPTH = 64;

/** Containers the fast walk visits before it hands over to the careful one (shared references can multiply visits). */
const FAST_WALK_BUDGET = 100_000;

/**
 * Finds the first reason `value` is nested too deeply, or `undefined` when it is not. The
 * arguments object itself is level 1, and every object or array inside it adds one level, so
 * with `maxDepth` 64 a chain of 64 containers passes and 65 fails with
 * `nested deeper than 64 levels`.
 *
 * The walk is iterative (an explicit stack, never recursion), so it cannot overflow the call
 * stack on 100,000-deep input, and it stops at the first container past the limit. A plain tree
 * (everything JSON.parse makes) is walked once, without bookkeeping. Values only in-process
 * callers can make are handled too: a cycle is refused with `contains a cycle`, and an object
 * shared along many paths is walked again only when reached at a deeper level, so the cost stays
 * bounded. It never changes `value`.
 */
export function depthProblem(value: unknown, maxDepth: number = DEFAULT_MAX_DEPTH): ArgumentProblem | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const fast = fastWalk(value, maxDepth);
  if (fast === 'fine') return undefined;
  return carefulWalk(value, maxDepth);
}

/** Walks a tree with no bookkeeping; answers `fine`, or `unsure` when too deep or over budget. */
function fastWalk(value: object, maxDepth: number): 'fine' | 'unsure' {
  const nodes: object[] = [value];
  const levels: number[] = [1];
  let visited = 0;
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const level = levels.pop()!;
    if (level > maxDepth || ++visited > FAST_WALK_BUDGET) return 'unsure';
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const child: unknown = node[i];
        if (typeof child === 'object' && child !== null) {
          nodes.push(child);
          levels.push(level + 1);
        }
      }
    } else {
      const keys = Object.keys(node);
      for (let i = 0; i < keys.length; i++) {
        const child: unknown = (node as Record<string, unknown>)[keys[i]!];
        if (typeof child === 'object' && child !== null) {
          nodes.push(child);
          levels.push(level + 1);
        }
      }
    }
  }
  return 'fine';
}

/** The exact answer, with cycle detection and shared-reference bookkeeping. */
function carefulWalk(value: object, maxDepth: number): ArgumentProblem | undefined {
  const tooDeep: ArgumentProblem = { pointer: '', message: `nested deeper than ${maxDepth} levels` };
  // Each frame is a container to enter at a level; a frame with `leave` set pops it off the path.
  const stack: Array<{ node: object; level: number; leave: boolean }> = [{ node: value, level: 1, leave: false }];
  const onPath = new Set<object>();
  // The deepest level each container was entered at: reached again no deeper, its subtree holds nothing new.
  const deepestEntered = new Map<object, number>();
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.leave) {
      onPath.delete(frame.node);
      continue;
    }
    const { node, level } = frame;
    if (onPath.has(node)) return { pointer: '', message: 'contains a cycle' };
    if (level > maxDepth) return tooDeep;
    const enteredAt = deepestEntered.get(node);
    if (enteredAt !== undefined && level <= enteredAt) continue;
    deepestEntered.set(node, level);
    onPath.add(node);
    stack.push({ node, level, leave: true });
    const children: unknown[] = Object.values(node); // an array's items too
    for (const child of children) {
      if (typeof child === 'object' && child !== null) stack.push({ node: child, level: level + 1, leave: false });
    }
  }
  return undefined;
}
