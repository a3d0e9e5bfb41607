/**
 * A recorded thread as the events of its turns, oldest first, for a reader that shows the whole
 * conversation turn by turn (the app-server's `thread/read` and `thread/resume`): the turn
 * boundaries (`task_started`, `task_complete`, `turn_aborted`), the events a front end redraws
 * (see initial-messages.ts: messages, reasoning, commands rebuilt from their calls, plans,
 * patches, MCP calls, web searches, compactions), each with the time its line was written.
 *
 * It reads our files, the reference's older ones (the same events) and its 0.169 ones, which
 * record finished items as `item_completed` events instead (user and agent messages, commands,
 * patches). A patch's end comes with its begin (the changes, read from the recorded patch), so a
 * reader can show which files it changed. A rollback drops the turns it removed.
 */
import type { EventMsg, FileChange } from "../protocol/events.js";
import { parsePatch } from "../patch/parser.js";
import { InitialMessages } from "./initial-messages.js";
import { scanRollout } from "./read.js";
import { responseItemFromRollout } from "./response-items.js";
import type { ResponseItem } from "../protocol/items.js";

export interface RecordedEvent {
  msg: EventMsg;
  /** When its line was written (Unix ms), null when the line carries no readable time. */
  atMs: number | null;
}

export interface RecordedEvents {
  events: RecordedEvent[];
  warnings: string[];
}

/** Kept as they are: the turns' boundaries and the compaction marker. */
const BOUNDARIES = new Set(["task_started", "task_complete", "turn_aborted", "context_compacted"]);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const LINE_TIME = /^\{"timestamp":"([^"]+)"/;

export function recordedEvents(path: string): RecordedEvents {
  const redrawn = new InitialMessages();
  const events: RecordedEvent[] = [];
  /** Commands an `item_completed` already reported, so their call/output pair does not again. */
  const reported = new Set<string>();
  /** Recorded apply_patch calls' patch text, by call id, until their end is seen. */
  const patches = new Map<string, string>();
  const scan = scanRollout(path, (line) => {
    const time = LINE_TIME.exec(line.raw)?.[1];
    const parsedTime = time === undefined ? NaN : Date.parse(time);
    const atMs = Number.isNaN(parsedTime) ? null : parsedTime;
    const seen = redrawn.messages.length;
    if (line.type === "event_msg") {
      const p = line.payload;
      if (!isObject(p)) return;
      if (p.type === "thread_rolled_back") {
        dropLastTurns(events, typeof p.num_turns === "number" ? p.num_turns : 0);
      } else if (typeof p.type === "string" && BOUNDARIES.has(p.type)) {
        events.push({ msg: p as EventMsg, atMs });
      } else if (p.type === "item_completed") {
        for (const msg of fromCompletedItem(p.item)) {
          if (msg.type === "exec_command_end" || msg.type === "patch_apply_end") reported.add(msg.call_id);
          events.push({ msg, atMs });
        }
      } else {
        redrawn.addEvent(p);
      }
    } else if (line.type === "response_item") {
      const item = responseItemFromRollout(line.payload);
      if (item) redrawn.addItem(item);
      const patch = item ? patchOf(item) : null;
      if (patch) patches.set(patch.callId, patch.text);
    }
    for (const msg of redrawn.messages.slice(seen)) {
      if ((msg.type === "exec_command_end" || msg.type === "patch_apply_end") && reported.has(msg.call_id)) continue;
      if (msg.type === "patch_apply_end") {
        events.push({ msg: { type: "patch_apply_begin", call_id: msg.call_id, auto_approved: true, changes: changesOf(patches.get(msg.call_id)) }, atMs });
        patches.delete(msg.call_id);
      }
      events.push({ msg, atMs });
    }
  });
  return { events, warnings: scan.warnings };
}

/** Drops the last `turns` user turns: from the `task_started` (or message) of the first one dropped. */
function dropLastTurns(events: RecordedEvent[], turns: number): void {
  if (turns <= 0) return;
  const starts = events.flatMap((e, i) => (e.msg.type === "user_message" ? [i] : []));
  let cut = starts[Math.max(0, starts.length - turns)];
  if (cut === undefined) return;
  while (cut > 0 && events[cut - 1]?.msg.type === "task_started") cut -= 1;
  events.length = cut;
}

const texts = (content: unknown): string =>
  Array.isArray(content)
    ? content
        .filter(isObject)
        .map((part) => (typeof part.text === "string" ? part.text : ""))
        .join("")
    : "";

/** The patch text of a recorded apply_patch call (freeform, or a function's `input`). */
function patchOf(item: ResponseItem): { callId: string; text: string } | null {
  if (item.type === "custom_tool_call" && item.name === "apply_patch") return { callId: item.call_id, text: item.input };
  if (item.type === "function_call" && item.name === "apply_patch") {
    try {
      const args = JSON.parse(item.arguments) as { input?: unknown };
      return typeof args.input === "string" ? { callId: item.call_id, text: args.input } : null;
    } catch {
      return null;
    }
  }
  return null;
}

/** What a recorded patch changes, by path as the patch spells it (each update as its chunks). */
function changesOf(patch: string | undefined): Record<string, FileChange> {
  const changes: Record<string, FileChange> = {};
  if (patch === undefined) return changes;
  try {
    for (const hunk of parsePatch(patch).hunks) {
      if (hunk.kind === "add") changes[hunk.path] = { type: "add", content: hunk.contents };
      else if (hunk.kind === "delete") changes[hunk.path] = { type: "delete", content: "" };
      else {
        const diff = hunk.chunks.map((c) => [`@@${c.changeContext ? ` ${c.changeContext}` : ""}`, ...c.oldLines.map((l) => `-${l}`), ...c.newLines.map((l) => `+${l}`)].join("\n"));
        changes[hunk.path] = { type: "update", unified_diff: `${diff.join("\n")}\n`, move_path: hunk.movePath };
      }
    }
  } catch {
    // A patch that did not parse applied nothing worth showing.
  }
  return changes;
}

/** The reference 0.169's recorded items (PascalCase kinds), as the events ours record. */
function fromCompletedItem(item: unknown): EventMsg[] {
  if (!isObject(item)) return [];
  switch (item.type) {
    case "UserMessage":
      return [{ type: "user_message", message: texts(item.content), images: null }];
    case "AgentMessage":
      return [{ type: "agent_message", message: texts(item.content) }];
    case "FileChange": {
      if (typeof item.id !== "string") return [];
      const changes = isObject(item.changes) ? (item.changes as Record<string, FileChange>) : {};
      const out = (key: string): string => (typeof item[key] === "string" ? (item[key] as string) : "");
      return [
        { type: "patch_apply_begin", call_id: item.id, auto_approved: true, changes },
        { type: "patch_apply_end", call_id: item.id, stdout: out("stdout"), stderr: out("stderr"), success: item.status === "completed" },
      ];
    }
    case "CommandExecution": {
      if (typeof item.id !== "string") return [];
      const command = Array.isArray(item.command) ? item.command.filter((a): a is string => typeof a === "string") : [];
      const output = typeof item.aggregated_output === "string" ? item.aggregated_output : "";
      const duration = isObject(item.duration) ? item.duration : {};
      return [{
        type: "exec_command_end",
        call_id: item.id,
        command,
        cwd: typeof item.cwd === "string" ? item.cwd.replace(/^file:\/\//, "") : "",
        stdout: output,
        stderr: "",
        aggregated_output: output,
        exit_code: typeof item.exit_code === "number" ? item.exit_code : -1,
        duration: { secs: typeof duration.secs === "number" ? duration.secs : 0, nanos: typeof duration.nanos === "number" ? duration.nanos : 0 },
        formatted_output: output,
      }];
    }
    default:
      return [];
  }
}
