/**
 * The events a front end needs to redraw a recorded conversation (session_configured's
 * `initial_messages`): the recorded user and agent messages, reasoning, applied patches, MCP
 * calls, web searches, collab tool results and aborted turns as they were written, plus what the rollout keeps only as response
 * items: each command the model ran (as an exec_command_end built from its call and output)
 * and each plan update (from the update_plan call's arguments). A rollback drops the events of
 * the turns it removed.
 */
import type { EventMsg, PlanItem } from "../protocol/events.js";
import type { ResponseItem } from "../protocol/items.js";

/** Recorded events worth redrawing; token counts and turn boundaries are not. */
const REDRAWN = new Set([
  "user_message",
  "agent_message",
  "agent_reasoning",
  "patch_apply_end",
  "mcp_tool_call_end",
  "web_search_end",
  "turn_aborted",
  "entered_review_mode",
  "exited_review_mode",
  // The collab tools' results (a redraw shows what each sub-agent was asked and answered).
  "collab_agent_spawn_end",
  "collab_agent_interaction_end",
  "collab_waiting_end",
  "collab_close_end",
  "collab_resume_end",
]);

const COMMAND_TOOLS = new Set(["shell", "shell_command", "exec_command", "local_shell", "container.exec"]);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

export function isRedrawnEvent(type: string | undefined): boolean {
  return type !== undefined && REDRAWN.has(type);
}

export class InitialMessages {
  readonly messages: EventMsg[] = [];
  /** Calls seen but not yet answered, by call id. */
  private readonly calls = new Map<string, { name: string; args: Json }>();

  addEvent(payload: unknown): void {
    if (isObject(payload) && isRedrawnEvent(typeof payload.type === "string" ? payload.type : undefined)) {
      this.messages.push(payload as EventMsg);
    }
  }

  addItem(item: ResponseItem): void {
    if (item.type === "function_call") {
      const args = parseArgs(item.arguments);
      if (item.name === "update_plan") {
        const plan = Array.isArray(args.plan) ? args.plan.filter(isPlanItem) : [];
        this.messages.push({ type: "plan_update", explanation: typeof args.explanation === "string" ? args.explanation : null, plan });
      } else if (COMMAND_TOOLS.has(item.name)) {
        this.calls.set(item.call_id, { name: item.name, args });
      }
      return;
    }
    if (item.type !== "function_call_output") return;
    const call = this.calls.get(item.call_id);
    if (!call) return;
    this.calls.delete(item.call_id);
    const output = typeof item.output === "string" ? item.output : item.output.map((c) => ("text" in c ? c.text : "")).join("");
    this.messages.push(commandEnd(item.call_id, call.name, call.args, output));
  }

  /** Drops the events of the last `turns` user turns, as a rollback drops them from history. */
  rollback(turns: number): void {
    if (turns <= 0) return;
    const starts = this.messages.flatMap((m, i) => (m.type === "user_message" ? [i] : []));
    const cut = starts[Math.max(0, starts.length - turns)];
    if (cut !== undefined) this.messages.length = cut;
  }
}

function parseArgs(text: string): Json {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : {};
  } catch {
    return {};
  }
}

function isPlanItem(v: unknown): v is PlanItem {
  return isObject(v) && typeof v.step === "string" && (v.status === "pending" || v.status === "in_progress" || v.status === "completed");
}

function commandEnd(callId: string, tool: string, args: Json, output: string): EventMsg {
  const command = commandOf(tool, args);
  const { exitCode, text } = outcomeOf(output);
  return {
    type: "exec_command_end",
    call_id: callId,
    command,
    cwd: typeof args.workdir === "string" ? args.workdir : "",
    stdout: text,
    stderr: "",
    aggregated_output: text,
    exit_code: exitCode,
    duration: { secs: 0, nanos: 0 },
    formatted_output: text,
  };
}

function commandOf(tool: string, args: Json): string[] {
  if (Array.isArray(args.command)) return args.command.filter((a): a is string => typeof a === "string");
  const script = typeof args.cmd === "string" ? args.cmd : typeof args.command === "string" ? args.command : "";
  return tool === "exec_command" || tool === "shell_command" ? ["bash", "-lc", script] : [script];
}

/** The exit code and output text from the formats the command tools answer in. */
function outcomeOf(output: string): { exitCode: number; text: string } {
  try {
    const json: unknown = JSON.parse(output);
    if (isObject(json) && typeof json.output === "string") {
      const meta = isObject(json.metadata) ? json.metadata : {};
      return { exitCode: typeof meta.exit_code === "number" ? meta.exit_code : 0, text: json.output };
    }
  } catch {
    // Plain text: the freeform and unified exec layouts.
  }
  const code = /^(?:Exit code: |Process exited with code )(-?\d+)$/m.exec(output);
  const body = /\nOutput:\n([\s\S]*)$/.exec(output);
  return { exitCode: code ? Number(code[1]) : 0, text: body ? (body[1] ?? "") : output };
}
