/** What a listener of `ServerChanges` is told. */
export interface ChangeListener {
  /** Told that the content of the resource at `uri` changed. */
  resourceUpdated?(uri: string): void;
  /** Told that the list of resources changed. */
  resourcesChanged?(): void;
  /** Told that the list of tools changed. */
  toolsChanged?(): void;
  /** Told that the list of prompts changed. */
  promptsChanged?(): void;
}

/**
 * Where an application announces that its resources changed, for the servers that serve them to
 * tell their clients. Give one as the `changes` option of `createServer`, `serveStdio`,
 * `serveHttp` (or the CLI's module, as its `changes` export) and call, whenever a resource's
 * content changes, `resourceUpdated(uri)`: every client subscribed to `uri` gets
 * `notifications/resources/updated` (a 2025-11-25 session that sent `resources/subscribe`, a
 * 2026-07-28 `subscriptions/listen` stream that named the URI in `resourceSubscriptions`).
 * `resourcesChanged()` says the list of resources changed (a template's `list` enumerates
 * others now): clients get `notifications/resources/list_changed` (2026-07-28 streams that asked
 * for `resourcesListChanged`). `toolsChanged()` and `promptsChanged()` say the same of the tools
 * and prompts (`notifications/tools/list_changed`, `notifications/prompts/list_changed`): a
 * served set that changes (see `ServedSet`) announces its own changes this way, so these are for
 * a list that changes in some other way (a tool whose description is computed, say). Every
 * announcement is best effort and never throws; a server that is closed is no longer told. One
 * `ServerChanges` may feed several servers and endpoints.
 */
export class ServerChanges {
  private readonly listeners = new Set<ChangeListener>();
  private readonly subscriptionListeners = new Set<(uri: string, subscribed: boolean) => void>();

  /**
   * Tells every subscriber of `uri` that the resource changed. Throws a `TypeError` for a URI that
   * is not a non-empty string.
   */
  resourceUpdated(uri: string): void {
    if (typeof uri !== 'string' || uri === '')
      throw new TypeError(
        `ServerChanges.resourceUpdated: the URI must be a non-empty string, got ${JSON.stringify(uri) ?? typeof uri}`,
      );
    this.tell((listener) => listener.resourceUpdated?.(uri));
  }

  /** Tells every client that the list of resources changed. */
  resourcesChanged(): void {
    this.tell((listener) => listener.resourcesChanged?.());
  }

  /** Tells every client that the list of tools changed. */
  toolsChanged(): void {
    this.tell((listener) => listener.toolsChanged?.());
  }

  /** Tells every client that the list of prompts changed. */
  promptsChanged(): void {
    this.tell((listener) => listener.promptsChanged?.());
  }

  /** Tells every listener attached now, each on its own: one that throws never keeps the others from being told. */
  private tell(what: (listener: ChangeListener) => void): void {
    for (const listener of [...this.listeners]) {
      try {
        what(listener);
      } catch {
        // One server's failure never keeps the others from being told.
      }
    }
  }

  /**
   * Told by the servers when a 2025-era client subscribes to `uri` (`subscribed: true`) or
   * unsubscribes (`false`); a proxy subscribes upstream then. Internal to the MCP edge.
   */
  noteSubscription(uri: string, subscribed: boolean): void {
    for (const listener of [...this.subscriptionListeners]) {
      try {
        listener(uri, subscribed);
      } catch {
        // As above.
      }
    }
  }

  /** Adds a listener of `noteSubscription` and returns the function that removes it. Internal to the MCP edge. */
  onSubscription(listener: (uri: string, subscribed: boolean) => void): () => void {
    this.subscriptionListeners.add(listener);
    return () => void this.subscriptionListeners.delete(listener);
  }

  /** Adds a listener (a server, an endpoint) and returns the function that removes it. Internal to the MCP edge. */
  listen(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** How many listeners are attached (tests and diagnostics). */
  get listenerCount(): number {
    return this.listeners.size;
  }
}

/**
 * True for a `ServerChanges`, checked by shape (`listen`, `resourceUpdated`, `resourcesChanged`),
 * never with `instanceof`, so one made by another copy of toolwright in the process is accepted.
 */
export function isServerChanges(value: unknown): value is ServerChanges {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ServerChanges).listen === 'function' &&
    typeof (value as ServerChanges).resourceUpdated === 'function' &&
    typeof (value as ServerChanges).resourcesChanged === 'function'
  );
}
