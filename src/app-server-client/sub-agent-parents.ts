/**
 * Which thread a sub-agent's thread grew from, as a remote client learns it. The app-server
 * serves a sub-agent's thread as a thread of its own (as the reference does): its notifications
 * and its questions name the sub-agent's id, a thread the remote UI does not open. The UI shows
 * sub-agents through their parent's collabAgentToolCall items and asks their questions where the
 * user is, so it needs each sub-agent's parent: a spawnAgent item names it (`senderThreadId`)
 * and the sub-agent (`receiverThreadIds`).
 */
type Json = Record<string, unknown>;

/** How deep a tree is followed up (far past `[agents] max_depth`; guards against a cycle). */
const MAX_DEPTH = 64;

export class SubAgentParents {
  private readonly parents = new Map<string, string>();

  /** Learns the sub-agents a spawnAgent item (started or completed) names. */
  note(method: string, params: Json): void {
    if (method !== "item/started" && method !== "item/completed") return;
    const item = params.item as Json | undefined;
    if (item?.type !== "collabAgentToolCall" || item.tool !== "spawnAgent" || typeof item.senderThreadId !== "string") return;
    const receivers = Array.isArray(item.receiverThreadIds) ? item.receiverThreadIds : [];
    for (const child of receivers) if (typeof child === "string" && child !== item.senderThreadId) this.parents.set(child, item.senderThreadId);
  }

  isSubAgent(threadId: string): boolean {
    return this.parents.has(threadId);
  }

  /** The nearest of `threadId`'s ancestors that `isOpen` accepts (its parent first), else null. */
  openAncestor(threadId: string, isOpen: (threadId: string) => boolean): string | null {
    let id = this.parents.get(threadId);
    for (let depth = 0; id !== undefined && depth < MAX_DEPTH; depth++) {
      if (isOpen(id)) return id;
      id = this.parents.get(id);
    }
    return null;
  }
}
