import { OutputSchemaMismatchError, type ToolResult } from '../../contract/index.js';
import { problemsText } from './ajv.js';
import type { CompiledSchema } from './validator.js';

/**
 * Checks a result against a tool's compiled output schema, as every host does after `execute`:
 * a result marked `isError` is not checked (an error says nothing structured); any other must
 * carry `structuredContent` that matches. Throws `OutputSchemaMismatchError`:
 * `structured content does not match the output schema: the tool returned no structured content`,
 * or `structured content does not match the output schema: /count: must be integer` (every
 * problem, joined by `; `). It never changes the result.
 */
export function checkOutputSchema(validate: CompiledSchema, result: ToolResult): void {
  if (result.isError === true) return;
  if (result.structuredContent === undefined)
    throw new OutputSchemaMismatchError(
      'structured content does not match the output schema: the tool returned no structured content',
    );
  if (!validate(result.structuredContent))
    throw new OutputSchemaMismatchError(
      `structured content does not match the output schema: ${problemsText(validate.errors)}`,
    );
}
