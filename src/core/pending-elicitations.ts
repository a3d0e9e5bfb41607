/**
 * Questions MCP servers asked the user (`elicitation_request` events) that wait for a
 * `resolve_elicitation` op, keyed by server and request id. When nobody can answer (approval
 * policy `never`, as in exec) the session declines at once instead of asking.
 */
import type { ElicitationAnswer } from "../mcp/elicitation.js";

export class PendingElicitations {
  private readonly waiting = new Map<string, (answer: ElicitationAnswer) => void>();

  wait(server: string, id: string | number): Promise<ElicitationAnswer> {
    return new Promise((resolve) => this.waiting.set(key(server, id), resolve));
  }

  /** Delivers the user's answer; false when nothing waits under that server and id. */
  resolve(server: string, id: string | number, answer: ElicitationAnswer): boolean {
    const k = key(server, id);
    const resolver = this.waiting.get(k);
    if (!resolver) return false;
    this.waiting.delete(k);
    resolver(answer);
    return true;
  }

  /** Shutdown: every server still waiting hears "cancel". */
  cancelAll(): void {
    for (const [k, resolver] of this.waiting) {
      this.waiting.delete(k);
      resolver({ action: "cancel" });
    }
  }
}

const key = (server: string, id: string | number): string => JSON.stringify([server, id]);
