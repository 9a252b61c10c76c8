import type { Implications } from './capabilities.js';
import type { PermissionEffect, StoredDecision } from './decision.js';
import { decisionCovering, selects, type DecisionSelector } from './remembered.js';

/**
 * Decisions per tool, subject and capability (the policy's "always" memory, and one call's "once"
 * grants). Looking one up follows the implications: a stored `allow` of `write` answers `read`,
 * a stored `deny` of `read` answers `write`; a deny found this way wins over an allow.
 */
export class DecisionMap {
  private readonly byTool = new Map<string, Map<string, Map<string, StoredDecision>>>();

  /** Stores `effect` for each capability, replacing what was stored for it. */
  set(tool: string, subject: string, capabilities: readonly string[], effect: PermissionEffect, reason?: string): void {
    let bySubject = this.byTool.get(tool);
    if (bySubject === undefined) this.byTool.set(tool, (bySubject = new Map()));
    let byCapability = bySubject.get(subject);
    if (byCapability === undefined) bySubject.set(subject, (byCapability = new Map()));
    for (const capability of capabilities) {
      byCapability.set(
        capability,
        Object.freeze(
          reason === undefined ? { tool, subject, capability, effect } : { tool, subject, capability, effect, reason },
        ),
      );
    }
  }

  /** The stored decision covering `capability`, or `undefined`. */
  lookup(tool: string, subject: string, capability: string, implications: Implications): StoredDecision | undefined {
    const byCapability = this.byTool.get(tool)?.get(subject);
    return byCapability === undefined ? undefined : decisionCovering(byCapability, capability, implications);
  }

  /** The decisions stored for `tool` on `subject`, one per capability, in the order stored. */
  on(tool: string, subject: string): StoredDecision[] {
    return [...(this.byTool.get(tool)?.get(subject)?.values() ?? [])];
  }

  /** Forgets the stored decisions that match `selector` (all without one); answers how many. */
  revoke(selector?: DecisionSelector): number {
    let forgotten = 0;
    for (const [tool, bySubject] of this.byTool) {
      for (const [subject, byCapability] of bySubject) {
        for (const [capability, stored] of byCapability) {
          if (!selects(selector, stored)) continue;
          byCapability.delete(capability);
          forgotten += 1;
        }
        if (byCapability.size === 0) bySubject.delete(subject);
      }
      if (bySubject.size === 0) this.byTool.delete(tool);
    }
    return forgotten;
  }

  /** Every stored decision, in the order stored. */
  list(): StoredDecision[] {
    const all: StoredDecision[] = [];
    for (const bySubject of this.byTool.values())
      for (const byCapability of bySubject.values()) all.push(...byCapability.values());
    return all;
  }

  /** Forgets everything. */
  clear(): void {
    this.byTool.clear();
  }
}
