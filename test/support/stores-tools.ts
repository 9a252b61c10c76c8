import type { ContractTool } from '../../src/index.js';
import type { VerifiedToken } from '../../src/mcp/index.js';

/**
 * A hand-built tool that needs `write` on its `path` (asked with `ctx.requirePermission`), then
 * answers `wrote <path>`.
 */
export const writeTool: ContractTool = {
  name: 'write_file',
  description: 'Writes a file (needs write on its path)',
  parameters: {
    type: 'object',
    properties: { path: { type: 'string' } },
    required: ['path'],
    additionalProperties: false,
  },
  execute: async (args, ctx) => {
    const { path } = args as { path: string };
    await ctx.requirePermission({ subject: path, capabilities: ['write'] });
    return `wrote ${path}`;
  },
};

/** The resource URL the test servers with `STORES_AUTH` say they are. */
export const STORES_RESOURCE = 'https://tools.example/mcp';

/**
 * The `auth` option of the stores tests' servers: a host verifier for which the bearer token is
 * the subject (issuer `https://as.example`, valid for an hour).
 */
export const STORES_AUTH = {
  verifier: async (token: string): Promise<VerifiedToken> => ({
    subject: token,
    clientId: 'app',
    scopes: [],
    expiresAt: Math.floor(Date.now() / 1000) + 3600,
    audience: [STORES_RESOURCE],
    issuer: 'https://as.example',
    claims: { sub: token },
  }),
  issuer: 'https://as.example',
  resource: STORES_RESOURCE,
};
