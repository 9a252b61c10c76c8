import type { ArgumentProblem } from '../../contract/index.js';

/** The nesting limit a compiled tool applies to its arguments unless told otherwise. */
export const DEFAULT_MAX_DEPTH = 64;

/**
 * Finds the first reason `value` is nested too deeply, or `undefined` when it is not. The
 * arguments object itself is level 1, and every object or array inside it adds one level, so
 * with `maxDepth` 64 a chain of 64 containers passes and 65 fails with
 * `nested deeper than 64 levels`.
 *
 * The walk is iterative (an explicit stack, never recursion), so it cannot overflow the call
 * stack on 100,000-deep input; it stops at the first container past the limit, so its cost is
 * bounded by the part of the value within the limit. A cycle (possible only for in-process
 * callers; JSON has none) is refused with `contains a cycle`. An object reached twice along
 * different paths (a shared reference) is walked again only when reached at a deeper level.
 * It never reads a property through a getter of a prototype and never changes `value`.
 */
export function depthProblem(value: unknown, maxDepth: number = DEFAULT_MAX_DEPTH): ArgumentProblem | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const tooDeep: ArgumentProblem = { pointer: '', message: `nested deeper than ${maxDepth} levels` };
  // Each frame is a container to enter at a level; a frame with `leave` set pops it off the path.
  const stack: Array<{ node: object; level: number; leave: boolean }> = [{ node: value, level: 1, leave: false }];
  const onPath = new Set<object>();
  const shallowestSeen = new Map<object, number>();
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.leave) {
      onPath.delete(frame.node);
      continue;
    }
    const { node, level } = frame;
    if (level > maxDepth) return tooDeep;
    if (onPath.has(node)) return { pointer: '', message: 'contains a cycle' };
    const seenAt = shallowestSeen.get(node);
    if (seenAt !== undefined && seenAt <= level) continue;
    shallowestSeen.set(node, level);
    onPath.add(node);
    stack.push({ node, level, leave: true });
    const children: unknown[] = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) stack.push({ node: child, level: level + 1, leave: false });
    }
  }
  return undefined;
}
