/**
 * Decides which event lines the recorder writes for each event of a session, so that a resume
 * can redraw the conversation as it was shown. Most events are kept or dropped by the
 * persistence policy (policy.ts). Commands and file changes are recorded the way the reference
 * records them in its "extended" mode, which its own readers understand:
 *
 * - a finished command as its `exec_command_end`, with the reference's `turn_id`, `status` and
 *   `parsed_cmd`, and its output once (the model's copy is in the response items);
 * - a file change as its `patch_apply_end`, with the `changes` its begin announced (the diff the
 *   "Edited" cell shows), `status` and `turn_id`;
 * - a command still running when its turn is interrupted as its `exec_command_begin` and the
 *   tail of what it printed (one `exec_command_output_delta`), just before the `turn_aborted`
 *   that stopped it: replayed, the interrupt ends it as it did live.
 */
import type { EventMsg, FileChange } from "../protocol/events.js";
import { isPersistedEvent } from "./policy.js";

/** How much of a running command's output is kept for the case its turn is interrupted (a UI shows its last lines). */
const KEPT_OUTPUT_BYTES = 16 * 1024;

type Begin = Extract<EventMsg, { type: "exec_command_begin" }>;

interface RunningCommand {
  begin: Begin;
  /** The latest output chunks, base64 as the events carry them; decoded only if needed. */
  chunks: string[];
  keptBytes: number;
}

export class ItemJournal {
  private turnId = "";
  private readonly commands = new Map<string, RunningCommand>();
  private readonly patches = new Map<string, Record<string, FileChange>>();

  /** The event payloads to record for `msg`, in order (none for most events). */
  recordable(msg: EventMsg): EventMsg[] {
    switch (msg.type) {
      case "task_started":
        this.turnId = msg.turn_id;
        break;
      case "exec_command_begin":
        this.commands.set(msg.call_id, { begin: msg, chunks: [], keptBytes: 0 });
        return [];
      case "exec_command_output_delta": {
        const running = this.commands.get(msg.call_id);
        if (running) keepTail(running, msg.chunk);
        return [];
      }
      case "exec_command_end": {
        const running = this.commands.get(msg.call_id);
        this.commands.delete(msg.call_id);
        return [
          {
            ...msg,
            stdout: "",
            stderr: "",
            formatted_output: "",
            turn_id: this.turnId,
            status: msg.exit_code === 0 ? "completed" : "failed",
            parsed_cmd: running?.begin.parsed_cmd ?? [],
          },
        ];
      }
      case "patch_apply_begin":
        this.patches.set(msg.call_id, msg.changes);
        return [];
      case "patch_apply_end": {
        const changes = this.patches.get(msg.call_id);
        this.patches.delete(msg.call_id);
        return [{ ...msg, turn_id: this.turnId, status: msg.success ? "completed" : "failed", ...(changes ? { changes } : {}) }];
      }
      case "turn_aborted": {
        // Interrupting a turn stops every command still running.
        const stopped = [...this.commands.values()].flatMap((c) => this.interrupted(c));
        this.commands.clear();
        this.patches.clear();
        return [...stopped, msg];
      }
      default:
        break;
    }
    return isPersistedEvent(msg) ? [msg] : [];
  }

  private interrupted(running: RunningCommand): EventMsg[] {
    const begin: EventMsg = { ...running.begin, turn_id: this.turnId };
    if (running.chunks.length === 0) return [begin];
    const output = Buffer.concat(running.chunks.map((c) => Buffer.from(c, "base64"))).toString("base64");
    return [begin, { type: "exec_command_output_delta", call_id: running.begin.call_id, stream: "stdout", chunk: output }];
  }
}

function keepTail(running: RunningCommand, chunk: string): void {
  const size = (c: string | undefined): number => ((c?.length ?? 0) * 3) / 4;
  running.chunks.push(chunk);
  running.keptBytes += size(chunk);
  while (running.chunks.length > 1 && running.keptBytes - size(running.chunks[0]) >= KEPT_OUTPUT_BYTES) {
    running.keptBytes -= size(running.chunks.shift());
  }
}
