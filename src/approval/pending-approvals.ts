/**
 * Approvals awaiting the user, keyed by the tool call's id (not the turn's, so two parallel
 * calls can each wait for their own answer). An interrupted turn denies whatever is pending.
 */
import type { ReviewDecision } from "../protocol/policy.js";

export class PendingApprovals {
  private readonly waiting = new Map<string, (decision: ReviewDecision) => void>();

  wait(callId: string): Promise<ReviewDecision> {
    return new Promise((resolve) => this.waiting.set(callId, resolve));
  }

  /** Delivers the user's decision; false when nothing waits under that id. */
  resolve(callId: string, decision: ReviewDecision): boolean {
    const resolver = this.waiting.get(callId);
    if (!resolver) return false;
    this.waiting.delete(callId);
    resolver(decision);
    return true;
  }

  denyAll(): void {
    for (const [callId, resolver] of this.waiting) {
      this.waiting.delete(callId);
      resolver("denied");
    }
  }
}
