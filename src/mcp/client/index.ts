export { connectTools, listToolsOf, MAX_LIST_PAGES } from './connect-tools.js';
export {
  connectServer,
  type ServerTarget,
  type StdioTarget,
  type UrlTarget,
  type UpstreamAuthProvider,
  type ConnectServerOptions,
  type ServerConnection,
} from './connect-server.js';
export { consumedToolInfo, type ConsumedToolInfo } from './consumed-tool.js';
export { consumerPolicy, UNCLASSIFIED_CAPABILITY, DENIED_BY_DEFAULT, type ConsumerPolicyOptions } from './policy.js';
export {
  permissionOf,
  annotationsOfListed,
  type ToolPermission,
  type TrustOptions,
  type ListedAnnotations,
} from './trust.js';
export { projectResult, truncateChars, NO_RESULT_TEXT, type ProjectedOutput } from './bounded-output.js';
export { executionOf, claimsOf, type ExecutionClaims, type ListedClaims } from './execution.js';
export type { ConsumeOptions, ExecutionMode, ListedTool, PerTool } from './options.js';
export type { McpClientLike, ClientRequestOptions } from './client-like.js';
export type { HostElicitor } from './upstream.js';
export type { ConsumedFeatures } from './consumed-features.js';
