/**
 * The benchmark's second toolwright side: the same `echo` tool as a hand-built contract tool (a
 * plain object validating its arguments with the default validator, no DTO class), served over stdio by
 * toolwright. Next to toolwright-echo-server.ts it separates the cost of the MCP edge from the
 * cost of the decorated-class layer (DTO instance building).
 */
import { compileSchema, problemsOf } from 'toolwright/compiler';
import { InvalidArgumentsError, serveStdio, type ContractTool, type JsonObject } from 'toolwright';
import { reportCpuOnSignal } from './cpu-report.js';

reportCpuOnSignal();

const schema: JsonObject = {
  type: 'object',
  properties: {
    text: { type: 'string', maxLength: 10_000, description: 'The text to echo back' },
    count: { type: 'integer', minimum: 1, maximum: 5, description: 'How many times to repeat it (default 1)' },
  },
  required: ['text'],
  additionalProperties: false,
};
const validate = compileSchema(schema);

const echo: ContractTool = {
  name: 'echo',
  description: 'Echoes the text back, repeated count times (1 to 5).',
  parameters: schema,
  annotations: { readOnly: true, idempotent: true },
  async execute(args: unknown): Promise<string> {
    if (!validate(args)) throw new InvalidArgumentsError(problemsOf(validate.errors));
    const { text, count } = args as { text: string; count?: number };
    return Array.from({ length: count ?? 1 }, () => text).join(' ');
  },
};

serveStdio({ name: 'toolwright-handbuilt-echo', version: '1.0.0' }, [echo]).catch((error: unknown) => {
  process.stderr.write(`toolwright-handbuilt-echo: ${String(error)}\n`);
  process.exit(1);
});
