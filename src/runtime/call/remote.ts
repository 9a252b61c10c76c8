import type { ContractTool } from '../../contract/index.js';

/*
 * Tools consumed from another MCP server: their own server validates their arguments (and the
 * SDK client their structured content), and their schemas may be in a dialect the local
 * validator does not read (draft-07 with `$schema`). The mark is private to the package: the
 * consuming client (src/mcp/client) sets it on the tools it makes; nothing outside toolwright can.
 */
const remoteTools = new WeakSet<ContractTool>();

/**
 * Marks `tool` as consumed from another server, so the call core checks only the outer shape of
 * its arguments (an object) and never compiles its `parameters` or `outputSchema`: the remote
 * server validates them. Internal: for toolwright's own MCP client; never exported from the
 * package. Returns `tool`.
 */
export function markRemoteTool<T extends ContractTool>(tool: T): T {
  remoteTools.add(tool);
  return tool;
}

/** True when `markRemoteTool` marked `tool`. */
export function isRemoteTool(tool: ContractTool): boolean {
  return remoteTools.has(tool);
}
