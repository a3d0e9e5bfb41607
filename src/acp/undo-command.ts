/**
 * `/undo` and `/redo` in the editor, as in the interactive UI: the files the last turn that
 * changed files changed are put back (`/undo`), or changed again (`/redo`, after an undo). The
 * editor sees it as an edit tool call that lists the paths. Files changed by hand since that turn
 * are named in a permission request ("Overwrite them" / "Keep my edits"), and overwritten only
 * after a yes, as the core's `undo` op asks (see docs/undo.md).
 */
import type { AgentContext, PermissionOption, SessionUpdate, StopReason, ToolCallUpdate } from "@agentclientprotocol/sdk";
import type { EventMsg } from "../protocol/events.js";
import type { Op } from "../protocol/ops.js";
import { textContent } from "./tool-calls.js";

type UndoCompleted = Extract<EventMsg, { type: "undo_completed" }>;

export interface UndoCommandContext {
  sessionId: string;
  client: AgentContext;
  /** Submits the op and resolves with the core's `undo_completed`. */
  run(op: Extract<Op, { type: "undo" | "redo" }>): Promise<UndoCompleted>;
  send(updates: SessionUpdate[]): Promise<void>;
  signal: AbortSignal;
}

const OVERWRITE = "overwrite";
const KEEP = "keep";

const OPTIONS: PermissionOption[] = [
  { optionId: OVERWRITE, name: "Overwrite them", kind: "allow_once" },
  { optionId: KEEP, name: "Keep my edits", kind: "reject_once" },
];

let calls = 0;

export async function runUndoCommand(action: "undo" | "redo", ctx: UndoCommandContext): Promise<StopReason> {
  const toolCallId = `${action}-${++calls}`;
  const title = action === "undo" ? "Undo the last turn's file changes" : "Redo the file changes the last undo took back";
  await ctx.send([{ sessionUpdate: "tool_call", toolCallId, title, kind: "edit", status: "in_progress" }]);
  let result = await ctx.run({ type: action });
  const conflicts = result.conflicts ?? [];
  if (!result.success && conflicts.length > 0) {
    const toolCall: ToolCallUpdate = { toolCallId, title: `${title}: ${conflicts.length === 1 ? "1 file was" : `${conflicts.length} files were`} changed by hand since`, content: [textContent(list(conflicts))] };
    const response = await ctx.client.request("session/request_permission", { sessionId: ctx.sessionId, toolCall, options: OPTIONS }, { cancellationSignal: ctx.signal });
    if (response.outcome.outcome === "selected" && response.outcome.optionId === OVERWRITE) result = await ctx.run({ type: action, overwrite: conflicts });
    else {
      await finish(ctx, toolCallId, "failed", `Nothing was changed; kept as you left ${conflicts.length === 1 ? "it" : "them"}:\n${list(conflicts)}`);
      return response.outcome.outcome === "cancelled" ? "cancelled" : "end_turn";
    }
  }
  const restored = result.restored ?? [];
  const message = result.message ?? (result.success ? "Done." : `Could not ${action}.`);
  await finish(ctx, toolCallId, result.success ? "completed" : "failed", restored.length > 0 ? `${message}\n${list(restored)}` : message);
  return "end_turn";
}

async function finish(ctx: UndoCommandContext, toolCallId: string, status: "completed" | "failed", said: string): Promise<void> {
  await ctx.send([
    { sessionUpdate: "tool_call_update", toolCallId, status, content: [textContent(said)] },
    { sessionUpdate: "agent_message_chunk", content: { type: "text", text: said } },
  ]);
}

function list(paths: readonly string[]): string {
  return paths.map((p) => `- ${p}`).join("\n");
}
