import { IsString } from 'class-validator';
import { compile, Requires, Tool, type CallContext, type ContractTool, type JsonObject } from '../../src/index.js';

const PATH_ARGS = {
  type: 'object',
  properties: { path: { type: 'string' } },
  required: ['path'],
  additionalProperties: false,
} as const satisfies JsonObject;

class PathArgs {
  @IsString()
  path!: string;
}

/**
 * The readers of the path-rule suites, each needing `read` on its `path` argument and, once it
 * has it, noting the path in `reached` and answering `read <path>`:
 * `read_declared` (compiled, `@Requires({ path: true })`), `read_imperative` (hand-built,
 * `ctx.requirePermission({ path: true })`) and `read_plain` (hand-built, a subject nobody marked
 * as a path: only the policy's `path` rules resolve it).
 */
export function pathReaders(reached: string[]): ContractTool[] {
  @Tool({ name: 'read_declared', description: 'Reads a file (declared path requirement)', args: PathArgs })
  @Requires({ capabilities: ['read'], subject: (args: PathArgs) => args.path, path: true })
  class ReadDeclared {
    async execute(args: PathArgs): Promise<string> {
      reached.push(`read_declared ${args.path}`);
      return `read ${args.path}`;
    }
  }
  const imperative = (name: string, path: boolean): ContractTool => ({
    name,
    description: `Reads a file (${path ? 'a path subject' : 'a plain subject'} asked in execute)`,
    parameters: PATH_ARGS,
    async execute(args: unknown, ctx: CallContext) {
      const given = (args as { path: string }).path;
      await ctx.requirePermission({ subject: given, capabilities: ['read'], ...(path ? { path } : {}) });
      reached.push(`${name} ${given}`);
      return `read ${given}`;
    },
  });
  return [...compile([ReadDeclared]), imperative('read_imperative', true), imperative('read_plain', false)];
}

/** The names of `pathReaders`, in order. */
export const PATH_READERS = ['read_declared', 'read_imperative', 'read_plain'] as const;
