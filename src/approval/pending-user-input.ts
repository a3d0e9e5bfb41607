/**
 * Questions awaiting the user's answers (the request_user_input tool), keyed by the tool call's
 * id like approvals, so parallel calls each get their own answer. The reference keys them by the
 * turn instead; an answer addressed to a turn id goes to that turn's oldest open question, so
 * front ends written for either convention work. An aborted turn stops the wait with `null`.
 */
import type { UserInputResponse } from "../protocol/user-questions.js";

interface Waiter {
  turnId: string;
  resolve: (response: UserInputResponse | null) => void;
}

export class PendingUserInput {
  /** Insertion-ordered, so "oldest of a turn" is the first match. */
  private readonly waiting = new Map<string, Waiter>();

  /** Waits for the answer to call `callId` of turn `turnId`; null once `signal` aborts. */
  wait(callId: string, turnId: string, signal: AbortSignal): Promise<UserInputResponse | null> {
    if (signal.aborted) return Promise.resolve(null);
    return new Promise((resolve) => {
      const onAbort = (): void => {
        this.waiting.delete(callId);
        resolve(null);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.waiting.set(callId, {
        turnId,
        resolve: (response) => {
          signal.removeEventListener("abort", onAbort);
          resolve(response);
        },
      });
    });
  }

  /** Delivers an answer by call id, else to the oldest question of the turn `id`; false when none waits. */
  resolve(id: string, response: UserInputResponse): boolean {
    let key: string | undefined = this.waiting.has(id) ? id : undefined;
    if (key === undefined) {
      for (const [callId, waiter] of this.waiting) {
        if (waiter.turnId === id) {
          key = callId;
          break;
        }
      }
    }
    const waiter = key === undefined ? undefined : this.waiting.get(key);
    if (key === undefined || !waiter) return false;
    this.waiting.delete(key);
    waiter.resolve(response);
    return true;
  }
}
