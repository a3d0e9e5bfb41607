/**
 * Undo and redo of the files a turn changed (see ../file-history.ts and docs/undo.md). Like a
 * rollback, both are refused while a turn runs: it would go on writing the files being put back.
 */
import type { OpFamily } from "./types.js";

const BUSY = "Cannot undo or redo while a turn is in progress; wait for it to end, or interrupt it.";

export const undoOps: OpFamily<"undo" | "redo"> = {
  undo: async (s, id, op) => {
    if (s.tasks.running()) return s.send(id, { type: "undo_completed", success: false, message: BUSY, action: "undo" });
    await s.files.undo(id, op.overwrite ?? []);
  },
  redo: async (s, id, op) => {
    if (s.tasks.running()) return s.send(id, { type: "undo_completed", success: false, message: BUSY, action: "redo" });
    await s.files.redo(id, op.overwrite ?? []);
  },
};
