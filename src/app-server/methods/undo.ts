/**
 * Undo over the app-server (codex-ts's additions; the reference's protocol has none): `thread/undo`
 * and `thread/redo`, and the files side of `thread/rollback` (`restore: "code" | "both"`). Each
 * answers with what the core's `undo_completed` said, so a client can name the paths put back and
 * ask its user about files changed by hand (`conflicts`) before sending the request again with them
 * in `overwrite`. See docs/undo.md.
 */
import { ERROR_CODES, RpcError } from "../../app-server-protocol/jsonrpc.js";
import type { EventMsg, UndoAction } from "../../protocol/events.js";
import { ROLLBACK_RESTORES, type RollbackRestore } from "../../protocol/ops.js";
import type { FilesRestored } from "../../app-server-protocol/v2.js";
import type { LiveThread } from "../live-thread.js";
import type { Params } from "../params.js";
import type { Method } from "../server.js";

type UndoCompleted = Extract<EventMsg, { type: "undo_completed" }>;

function filesRestored(msg: UndoCompleted, action: UndoAction): FilesRestored {
  return { success: msg.success, message: msg.message, action: msg.action ?? action, restored: msg.restored ?? [], conflicts: msg.conflicts ?? [] };
}

const undoCompleted = (msg: EventMsg): UndoCompleted | undefined => (msg.type === "undo_completed" ? msg : undefined);

function undoMethod(action: "undo" | "redo"): Method {
  return async ({ server }, params) => {
    const live = server.requireThread(params.string("threadId"));
    const overwrite = params.optionalStrings("overwrite") ?? [];
    // A refusal (a turn runs, nothing to undo, files changed by hand) is an answer, not an error.
    return filesRestored(await live.request({ type: action, overwrite }, undoCompleted), action);
  };
}

export const undoMethods: Record<string, Method> = {
  "thread/undo": undoMethod("undo"),
  "thread/redo": undoMethod("redo"),
};

/** What a `thread/rollback` puts back, and the files changed by hand it may overwrite. */
export interface RollbackChoice {
  restore: RollbackRestore;
  overwrite: string[];
}

export const CONVERSATION_ONLY: RollbackChoice = { restore: "conversation", overwrite: [] };

export function rollbackChoice(params: Params): RollbackChoice {
  return { restore: params.optionalEnum("restore", ROLLBACK_RESTORES) ?? "conversation", overwrite: params.optionalStrings("overwrite") ?? [] };
}

/**
 * Rolls back the last `messages` user messages, putting back what `restore` names. When the files
 * cannot all be put back, nothing is (the conversation stays too) and the request fails with the
 * undo's result as the error's `data.files`. Resolves with the files' result (null for the
 * conversation only).
 */
export async function rollbackWithFiles(live: LiveThread, messages: number, { restore, overwrite }: RollbackChoice): Promise<FilesRestored | null> {
  let files: UndoCompleted | null = null;
  // The error says why in its message too, for a client that does not read `data`.
  const failed = (message: string): RpcError =>
    files === null ? new RpcError(ERROR_CODES.invalidRequest, message) : new RpcError(ERROR_CODES.invalidRequest, [message, files.message].filter(Boolean).join(" "), { files: filesRestored(files, "rollback") });
  try {
    await live.request({ type: "thread_rollback", num_turns: messages, restore, ...(overwrite.length > 0 ? { overwrite } : {}) }, (msg) => {
      if (msg.type === "undo_completed") {
        files = msg;
        // Only the files: done once they are back (a failure ends with the error that follows).
        return restore === "code" && msg.success ? msg : undefined;
      }
      return msg.type === "thread_rolled_back" ? msg : undefined;
    });
  } catch (err) {
    throw failed((err as Error).message);
  }
  return files ? filesRestored(files, "rollback") : null;
}
