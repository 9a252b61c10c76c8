import type { Session } from '../../contract/index.js';
import type { PermissionEffect, StoredDecision } from './decision.js';
import { DecisionMap } from './decision-map.js';
import type { DecisionOwner } from './owner.js';
import type { DecisionSelector, RememberedDecisionStore } from './remembered.js';

/**
 * The remembered ("always") decisions of one policy in this process's memory (the default
 * `RememberedDecisionStore`), kept apart per owner (see `DecisionOwner`): one store for the
 * whole server, one per principal id, one per session object (in a `WeakMap`, so a session's
 * decisions go when the session goes). A decision remembered for one owner never answers a
 * check made for another. The `none` owner has no store: nothing is kept for it. Every method
 * answers synchronously.
 */
export class MemoryDecisionStore implements RememberedDecisionStore {
  private readonly server = new DecisionMap();
  private readonly principals = new Map<string, DecisionMap>();
  private sessions = new WeakMap<Session, DecisionMap>();

  /** The store of `owner`; made on first use when `create` is true, else `undefined` until then. */
  storeOf(owner: DecisionOwner, create: boolean): DecisionMap | undefined {
    switch (owner.kind) {
      case 'server':
        return this.server;
      case 'none':
        return undefined;
      case 'principal': {
        let store = this.principals.get(owner.id);
        if (store === undefined && create) this.principals.set(owner.id, (store = new DecisionMap()));
        return store;
      }
      case 'session': {
        let store = this.sessions.get(owner.session);
        if (store === undefined && create) this.sessions.set(owner.session, (store = new DecisionMap()));
        return store;
      }
    }
  }

  decisionsOn(owner: DecisionOwner, tool: string, subject: string): StoredDecision[] {
    return this.storeOf(owner, false)?.on(tool, subject) ?? [];
  }

  remember(
    owner: DecisionOwner,
    tool: string,
    subject: string,
    capabilities: readonly string[],
    effect: PermissionEffect,
    reason?: string,
  ): void {
    this.storeOf(owner, true)?.set(tool, subject, capabilities, effect, reason);
  }

  list(owner: DecisionOwner): StoredDecision[] {
    return this.storeOf(owner, false)?.list() ?? [];
  }

  revoke(owner: DecisionOwner, selector?: DecisionSelector): number {
    return this.storeOf(owner, false)?.revoke(selector) ?? 0;
  }

  /** Forgets what `owner` remembered, or everything (every owner) when `owner` is not given. */
  clear(owner?: DecisionOwner): void {
    if (owner === undefined) {
      this.server.clear();
      this.principals.clear();
      this.sessions = new WeakMap();
      return;
    }
    if (owner.kind === 'principal') this.principals.delete(owner.id);
    else if (owner.kind === 'session') this.sessions.delete(owner.session);
    else this.storeOf(owner, false)?.clear();
  }
}
