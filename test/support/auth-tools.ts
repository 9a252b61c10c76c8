import type { ContractTool, JsonObject } from '../../src/index.js';

/** `whoami`: answers the call's principal as structured JSON text (or `null`). */
export const whoamiTool: ContractTool = {
  name: 'whoami',
  description: 'Say who is calling',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
  execute: async (_args, ctx) => JSON.stringify(ctx.principal ?? null),
};

/** Calls of `create_issue` that reached `execute`, by title. */
export const createdIssues: string[] = [];

/** `create_issue`: needs the `issues:write` scope (the contract's `scopes`, as `@Scopes` records it). */
export const createIssueTool: ContractTool = {
  name: 'create_issue',
  description: 'Open an issue',
  parameters: {
    type: 'object',
    properties: { title: { type: 'string' } },
    required: ['title'],
    additionalProperties: false,
  },
  scopes: ['issues:write'],
  execute: async (args) => {
    const title = (args as JsonObject).title as string;
    createdIssues.push(title);
    return `created ${title}`;
  },
};

export const AUTH_TOOLS: readonly ContractTool[] = [whoamiTool, createIssueTool];
