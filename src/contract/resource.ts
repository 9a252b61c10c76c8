import type { CallContext } from './context.js';
import { ToolwrightError } from './errors.js';
import type { CompletionOutput, CompletionRequest } from './completion.js';
import type { Requirement } from './tool.js';

/**
 * Hints on a resource for the host that shows or picks it: who it is for, how important it is
 * (0 to 1), and when it last changed (an ISO 8601 timestamp).
 */
export interface ResourceAnnotations {
  readonly audience?: readonly ('user' | 'assistant')[];
  readonly priority?: number;
  readonly lastModified?: string;
}

/** One piece of a resource's content as text; `uri` and `mimeType` default to the resource's. */
export interface TextResourceContent {
  readonly uri?: string;
  readonly mimeType?: string;
  readonly text: string;
}

/**
 * One piece of a resource's content as binary data, base64 in `blob`; `uri` and `mimeType` default
 * to the resource's.
 */
export interface BlobResourceContent {
  readonly uri?: string;
  readonly mimeType?: string;
  readonly blob: string;
}

/** One piece of a resource's content. */
export type ResourceContent = TextResourceContent | BlobResourceContent;

/**
 * What reading a resource may return: text, bytes (sent base64), one content, or several (a
 * folder's files). A piece that names no `uri` or `mimeType` gets the resource's.
 */
export type ResourceOutput = string | Uint8Array | ResourceContent | readonly ResourceContent[];

/** The context of one resource read: a call context plus the URI being read. */
export interface ResourceContext extends CallContext {
  /** The URI the client asked for (for a template, the expansion it matched). */
  readonly uri: string;
}

/** What every served resource states besides how it is read: how it is listed, and the call core's claims. */
export interface ResourceDescription {
  /** The resource's name (MCP requires one; shown when there is no `title`). Not empty. */
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** The MIME type of its content (`text/plain`, `application/json`, `image/png`, ...). */
  readonly mimeType?: string;
  readonly annotations?: ResourceAnnotations;
  /** Time limit of each read, in milliseconds (see `ContractTool.timeoutMs`). */
  readonly timeoutMs?: number;
  /** Upper bound on the characters of text a read returns (see `ContractTool.maxOutputChars`). */
  readonly maxOutputChars?: number;
  /**
   * Permission requirements checked before each read; `subject` receives `{ uri, ...variables }`.
   * Under a host's permission policy a read is also a `read` request on its URI.
   */
  readonly requires?: readonly Requirement[];
  /** Releases what the resource holds. The host calls it. */
  close?(): Promise<void>;
}

/**
 * A resource with a fixed URI: a plain value any host can serve. Only `uri`, `name` and `read`
 * are required. A hand-built object is served exactly like a compiled one.
 */
export interface ContractResource extends ResourceDescription {
  /** An absolute URI (`scheme:...`), unique within a set. */
  readonly uri: string;
  /** Its size in bytes, when known. */
  readonly size?: number;
  /** Reads the resource. A rejection becomes an error answer, never a crash of the host. */
  read(ctx: ResourceContext): Promise<ResourceOutput>;
}

/** A concrete resource a template's `list` enumerates, listed among the static resources. */
export interface ListedResource {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly size?: number;
  readonly annotations?: ResourceAnnotations;
}

/** The values a URI gave a template's variables: a string each, a list for an exploded one. */
export type TemplateVariables = Readonly<Record<string, string | readonly string[]>>;

/**
 * A family of resources whose URIs match an RFC 6570 URI template: a plain value any host can
 * serve. Only `uriTemplate`, `name` and `read` are required.
 */
export interface ContractResourceTemplate extends ResourceDescription {
  /** An RFC 6570 URI template with at least one variable, unique within a set. */
  readonly uriTemplate: string;
  /**
   * Reads the resource at `ctx.uri`, given the values the URI gave the template's variables (a
   * variable the URI left out is absent). A template `compileResources` made validates them with
   * its variables class; a hand-built one gets them as they are.
   */
  read(variables: TemplateVariables, ctx: ResourceContext): Promise<ResourceOutput>;
  /** The concrete resources of the template worth listing (`resources/list` shows them after the static ones). */
  list?(ctx: CallContext): Promise<readonly ListedResource[]>;
  /** Suggests values for one variable (MCP `completion/complete`); its presence is the claim. */
  complete?(request: CompletionRequest, ctx: CallContext): Promise<CompletionOutput>;
}

/** True for a template (it has a `uriTemplate`), false for a resource with a fixed URI. */
export function isResourceTemplate(
  resource: ContractResource | ContractResourceTemplate,
): resource is ContractResourceTemplate {
  return typeof (resource as { uriTemplate?: unknown }).uriTemplate === 'string';
}

/** A set of served resources: resources with fixed URIs and templates, in listing order. */
export type ContractResources = readonly (ContractResource | ContractResourceTemplate)[];

/** The rule a resource URI follows here: an absolute URI (`scheme:` then at least one character), no spaces. */
export const RESOURCE_URI_PATTERN = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]+$/;

/**
 * Thrown by a read to say there is no resource at the URI (a template matched, but nothing is
 * there): hosts answer it as MCP's resource-not-found error (`-32602` `Resource not found`, the
 * URI as `data`), as for a URI nothing serves. Message: `no resource at <uri>` unless given.
 * Code `resource-not-found`.
 */
export class ResourceNotFoundError extends ToolwrightError {
  override readonly name = 'ResourceNotFoundError';
  readonly uri: string;
  constructor(uri: string, message = `no resource at ${uri}`) {
    super('resource-not-found', message);
    this.uri = uri;
  }
}
