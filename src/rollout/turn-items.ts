/**
 * `item_completed` event lines: how the reference (0.169) records each finished item of a turn
 * in its paginated session files (`{"type":"item_completed","thread_id","turn_id","item":{"type":
 * "CommandExecution" | "FileChange" | "UserMessage" | "AgentMessage" | "Reasoning" |
 * "ContextCompaction", …}}`), read back as the events that drew each item live. (codex-ts
 * records its own commands and file changes as the events themselves, a form the reference reads
 * too: see item-journal.ts.)
 */
import { fileURLToPath } from "node:url";
import type { EventMsg, ExecCommandSource, FileChange } from "../protocol/events.js";
import type { EventDuration } from "../protocol/mcp-events.js";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === "string" ? v : "");
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

function duration(v: unknown): EventDuration {
  return isObject(v) && typeof v.secs === "number" && typeof v.nanos === "number" ? { secs: v.secs, nanos: v.nanos } : { secs: 0, nanos: 0 };
}

/** The reference writes a command's directory as a `file://` URL. */
function pathOf(cwd: string): string {
  if (!cwd.startsWith("file://")) return cwd;
  try {
    return fileURLToPath(cwd);
  } catch {
    return cwd;
  }
}

/** The text parts of a recorded message item (`{type: "text"|"Text", text}`), joined. */
function textOf(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content.map((c) => (isObject(c) && typeof c.text === "string" ? c.text : "")).join("");
}

/** The events that drew a recorded item_completed payload's item; none for kinds we do not draw. */
export function redrawOfItem(payload: Json): EventMsg[] {
  const item = payload.item;
  if (!isObject(item)) return [];
  switch (item.type) {
    case "CommandExecution":
      return commandEnd(item);
    case "FileChange":
      if ((item.status !== "completed" && item.status !== "failed") || !isObject(item.changes)) return [];
      return patchEvents({
        type: "patch_apply_end",
        call_id: str(item.id),
        stdout: str(item.stdout),
        stderr: str(item.stderr),
        success: item.status === "completed",
        changes: item.changes as Record<string, FileChange>,
      });
    case "UserMessage":
      return [{ type: "user_message", message: textOf(item.content), images: null }];
    case "AgentMessage":
      return [{ type: "agent_message", message: textOf(item.content) }];
    case "Reasoning": {
      const text = strings(item.summary_text).join("\n\n");
      return text === "" ? [] : [{ type: "agent_reasoning", text }];
    }
    case "ContextCompaction":
      return [{ type: "context_compacted" }];
    default:
      return [];
  }
}

function commandEnd(item: Json): EventMsg[] {
  if ((item.status !== "completed" && item.status !== "failed") || typeof item.exit_code !== "number") return [];
  const source: ExecCommandSource | undefined = item.source === "user_shell" ? "user_shell" : undefined;
  return [
    {
      type: "exec_command_end",
      call_id: str(item.id),
      command: strings(item.command),
      cwd: pathOf(str(item.cwd)),
      stdout: "",
      stderr: "",
      aggregated_output: str(item.aggregated_output),
      exit_code: item.exit_code,
      duration: duration(item.duration),
      formatted_output: "",
      ...(source ? { source } : {}),
    },
  ];
}

/**
 * A recorded file change as it was drawn: its begin (which carries the changes a front end
 * shows) and its end. An end recorded without its changes (older files) is drawn as it was then.
 */
export function patchEvents(end: Extract<EventMsg, { type: "patch_apply_end" }>): EventMsg[] {
  if (!end.changes) return [end];
  return [{ type: "patch_apply_begin", call_id: end.call_id, auto_approved: true, changes: end.changes }, end];
}

/** The end a replayed command left running gets when no interrupt follows it, so it is not left spinning. */
export function closingEnd(begin: Extract<EventMsg, { type: "exec_command_begin" }>): EventMsg {
  return {
    type: "exec_command_end",
    call_id: begin.call_id,
    command: begin.command,
    cwd: begin.cwd,
    stdout: "",
    stderr: "",
    aggregated_output: "",
    exit_code: -1,
    duration: { secs: 0, nanos: 0 },
    formatted_output: "",
    ...(begin.source ? { source: begin.source } : {}),
  };
}
