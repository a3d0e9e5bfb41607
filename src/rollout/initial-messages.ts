/**
 * The events a front end redraws a recorded conversation from (session_configured's
 * `initial_messages`), built in the same pass that rebuilds the history: the recorded events in
 * file order, the events that drew the conversation live (see item-journal.ts for how commands
 * and file changes are recorded). The reference's `item_completed` lines become the events that
 * drew their items; turn boundaries and compactions come along so a front end draws its turn
 * lines as it did. Token counts only set what a front end shows next (usage, rate limits), so of
 * each run of them only the last one with figures and the last one without are kept, parsed
 * when a compaction or the end of the file comes. A compaction's note tells the figures shown
 * before it: for a compaction turn of its own (the user's /compact) those from before that turn
 * began, for one inside a user's turn the latest. A rollback drops the events of the turns it
 * removed.
 *
 * A turn whose end line carries `duration_ms` was written by a writer that records what it
 * showed (codex-ts now, the reference 0.169). For older files, a command or plan update is
 * inferred from the model's call and its output, unless the call never ran (a tool we do not
 * offer, arguments that did not fit); that guess is dropped when the turn proves to record its
 * own.
 */
import type { EventMsg, PlanItem } from "../protocol/events.js";
import type { ResponseItem } from "../protocol/items.js";
import { closingEnd, patchEvents, redrawOfItem } from "./turn-items.js";

/** Recorded events worth redrawing (they are kept by the persistence policy). */
const REDRAWN = new Set([
  "task_started",
  "task_complete",
  "turn_aborted",
  "user_message",
  "agent_message",
  "agent_reasoning",
  "plan_update",
  "question_asked",
  "question_resolved",
  "view_image_tool_call",
  "error",
  "item_completed",
  "exec_command_begin",
  "exec_command_output_delta",
  "exec_command_end",
  "patch_apply_end",
  "mcp_tool_call_end",
  "web_search_end",
  "entered_review_mode",
  "exited_review_mode",
  // The collab tools' results (a redraw shows what each sub-agent was asked and answered).
  "collab_agent_spawn_end",
  "collab_agent_interaction_end",
  "collab_waiting_end",
  "collab_close_end",
  "collab_resume_end",
  "context_compacted",
  "undo_completed",
]);

const COMMAND_TOOLS = new Set(["shell", "shell_command", "exec_command", "local_shell", "container.exec"]);

/** What the router answers a call it never ran with (see tools/router.ts, tools/argument-check.ts). */
const NEVER_RAN = ["unsupported call: ", "failed to parse function arguments"];

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
type Begin = Extract<EventMsg, { type: "exec_command_begin" }>;

export function isRedrawnEvent(type: string | undefined): boolean {
  return type !== undefined && REDRAWN.has(type);
}

export class InitialMessages {
  private readonly messages: EventMsg[] = [];
  /** Function calls that may redraw as a command or a plan, until their output comes. */
  private readonly calls = new Map<string, { name: string; arguments: string }>();
  /** Call ids a recorded event already redraws. */
  private readonly recorded = new Set<string>();
  /** Where the current turn starts in `messages`, and where its inferred events are. */
  private turnStart = 0;
  private inferred: number[] = [];
  /**
   * After the end of a turn that records what it showed, until the next turn starts: the outputs
   * recorded there (an interrupted call's "aborted") belong to that turn and infer nothing.
   */
  private endedRecording = false;
  /** Commands recorded as begun and not ended (an interrupt stopped them), by call id. */
  private readonly running = new Map<string, Begin>();
  /**
   * The current turn's user and agent messages not yet matched, by form (an event, or the
   * reference's item_completed), so that a message recorded both ways is drawn once.
   */
  private readonly unmatched = { event: new Map<string, number>(), item: new Map<string, number>() };
  /** The latest token_count lines not redrawn yet, as recorded: with figures, and without (rate limits only). */
  private counted: string | null = null;
  private limitsOnly: string | null = null;
  /** The count with figures not yet redrawn when the current turn began, and whether the turn has a user's message. */
  private countedAtTurnStart: string | null = null;
  private turnAsked = false;

  /** A recorded token_count line; `withFigures` when its `info` is not null. */
  addTokenCount(rawLine: string, withFigures: boolean): void {
    if (withFigures) {
      this.counted = rawLine;
      // A later count with figures carries newer rate limits too.
      this.limitsOnly = null;
    } else this.limitsOnly = rawLine;
  }

  /** A recorded event whose kind `isRedrawnEvent` accepted. */
  addEvent(payload: unknown): void {
    if (!isObject(payload)) return;
    const msg = payload as EventMsg | { type: "item_completed" };
    switch (msg.type) {
      case "task_started":
        this.endTurn(false);
        this.endedRecording = false;
        this.countedAtTurnStart = this.counted;
        this.turnAsked = false;
        this.messages.push(msg);
        return;
      case "task_complete":
      case "turn_aborted":
        this.endedRecording = typeof msg.duration_ms === "number";
        this.endTurn(msg.type === "turn_aborted", this.endedRecording);
        this.messages.push(msg);
        return;
      case "item_completed": {
        const item = isObject(payload.item) ? payload.item : {};
        if (typeof item.id === "string") this.recorded.add(item.id);
        for (const event of redrawOfItem(payload)) this.push(event, "item");
        return;
      }
      case "exec_command_begin":
        this.recorded.add(msg.call_id);
        this.running.set(msg.call_id, msg);
        this.messages.push(msg);
        return;
      case "exec_command_end":
        this.recorded.add(msg.call_id);
        this.running.delete(msg.call_id);
        this.messages.push(msg);
        return;
      case "context_compacted":
        if (!this.turnAsked) {
          // The later counts stay waiting: they come after the note.
          if (this.countedAtTurnStart !== null) this.pushTokenCount(this.countedAtTurnStart);
          this.countedAtTurnStart = null;
        } else this.flushTokenCounts();
        this.messages.push(msg);
        return;
      case "patch_apply_end":
        this.recorded.add(msg.call_id);
        this.messages.push(...patchEvents(msg));
        return;
      default:
        this.push(msg, "event");
    }
  }

  /** A history item: only older files, which record no commands, need the calls. */
  addItem(item: ResponseItem): void {
    if (item.type === "function_call") {
      if ((item.name === "update_plan" || COMMAND_TOOLS.has(item.name)) && !this.recorded.has(item.call_id)) {
        this.calls.set(item.call_id, { name: item.name, arguments: item.arguments });
      }
      return;
    }
    if (item.type !== "function_call_output") return;
    const call = this.calls.get(item.call_id);
    if (!call) return;
    this.calls.delete(item.call_id);
    if (this.recorded.has(item.call_id) || this.endedRecording) return;
    const output = typeof item.output === "string" ? item.output : item.output.map((c) => ("text" in c ? c.text : "")).join("");
    if (NEVER_RAN.some((p) => output.startsWith(p))) return;
    const inferred = call.name === "update_plan" ? planOf(call.arguments, output) : commandEnd(item.call_id, call.name, call.arguments, output);
    if (inferred === null) return;
    this.inferred.push(this.messages.length);
    this.messages.push(inferred);
  }

  /** Drops the events of the last `turns` user turns, as a rollback drops them from history. */
  rollback(turns: number): void {
    if (turns <= 0) return;
    this.endTurn(false);
    const starts: number[] = [];
    this.messages.forEach((m, i) => {
      if (m.type === "user_message") starts.push(i);
    });
    let cut = starts[Math.max(0, starts.length - turns)];
    if (cut === undefined) return;
    // The turn's task_started goes with it.
    if (this.messages[cut - 1]?.type === "task_started") cut -= 1;
    this.messages.length = cut;
    this.turnStart = cut;
  }

  /** The events in file order, once every line was read. */
  finish(): EventMsg[] {
    this.endTurn(false);
    this.flushTokenCounts();
    return this.messages;
  }

  private flushTokenCounts(): void {
    for (const raw of [this.counted, this.limitsOnly]) if (raw !== null) this.pushTokenCount(raw);
    this.counted = null;
    this.limitsOnly = null;
    this.countedAtTurnStart = null;
  }

  private pushTokenCount(rawLine: string): void {
    try {
      const payload = (JSON.parse(rawLine) as { payload?: EventMsg }).payload;
      if (payload?.type === "token_count") this.messages.push(payload);
    } catch {
      // The reader has warned about a line that is not JSON.
    }
  }

  private push(msg: EventMsg, form: "event" | "item"): void {
    if (msg.type === "user_message") this.turnAsked = true;
    if (msg.type === "user_message" || msg.type === "agent_message") {
      const key = `${msg.type}\n${msg.message}`;
      const other = this.unmatched[form === "event" ? "item" : "event"];
      const waiting = other.get(key) ?? 0;
      // The same message in the other form: already drawn.
      if (waiting > 0) return void other.set(key, waiting - 1);
      this.unmatched[form].set(key, (this.unmatched[form].get(key) ?? 0) + 1);
    }
    this.messages.push(msg);
  }

  /**
   * Closes the current turn. Replayed commands still running end as the interrupt ended them
   * (left to the turn_aborted that follows) or, with no interrupt, as failed, never running on.
   * A turn that records what it showed keeps none of the events inferred from its calls.
   */
  private endTurn(interrupted: boolean, recordsItems = false): void {
    if (!interrupted) for (const begin of this.running.values()) this.messages.push(closingEnd(begin));
    this.running.clear();
    if (recordsItems && this.inferred.length > 0) {
      const drop = new Set(this.inferred);
      const tail = this.messages.splice(this.turnStart);
      for (let i = 0; i < tail.length; i++) if (!drop.has(this.turnStart + i)) this.messages.push(tail[i] as EventMsg);
    }
    this.inferred = [];
    this.unmatched.event.clear();
    this.unmatched.item.clear();
    this.turnStart = this.messages.length;
  }
}

function parseArgs(text: string): Json {
  if (!text.startsWith("{")) return {};
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

/** A plan update the handler accepted (it answers "Plan updated"; anything else was refused). */
function planOf(argumentsText: string, output: string): EventMsg | null {
  if (output !== "Plan updated") return null;
  const args = parseArgs(argumentsText);
  const plan = Array.isArray(args.plan) ? args.plan.filter(isPlanItem) : [];
  return { type: "plan_update", explanation: typeof args.explanation === "string" ? args.explanation : null, plan };
}

/** The end of a command as its call and output tell it; null while it still runs (its end comes later). */
function commandEnd(callId: string, tool: string, argumentsText: string, output: string): EventMsg | null {
  const outcome = outcomeOf(output);
  if (outcome === null) return null;
  const { exitCode, text } = outcome;
  const args = parseArgs(argumentsText);
  return {
    type: "exec_command_end",
    call_id: callId,
    command: commandOf(tool, args),
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

const EXIT_LINES = ["Exit code: ", "Process exited with code "];
const OUTPUT_MARK = "\nOutput:\n";
const RUNNING_LINE = "\nProcess running with session ID ";

/**
 * The exit code and output text from the formats the command tools answer in: the JSON of the
 * `shell` tool, or the plain-text header of the others (`Exit code: N` / `Process exited with
 * code N`, then `Output:`). An answer in neither form (a refusal, say) reads as a failure; a
 * process still running (`Process running with session ID N`) has no outcome yet.
 */
function outcomeOf(output: string): { exitCode: number; text: string } | null {
  if (output.startsWith("{")) {
    try {
      const json: unknown = JSON.parse(output);
      if (isObject(json) && typeof json.output === "string") {
        const meta = isObject(json.metadata) ? json.metadata : {};
        return { exitCode: typeof meta.exit_code === "number" ? meta.exit_code : 0, text: json.output };
      }
    } catch {
      // Not the shell tool's JSON after all: read it as text.
    }
  }
  const body = output.indexOf(OUTPUT_MARK);
  const header = body === -1 ? output : output.slice(0, body);
  if (header.includes(RUNNING_LINE)) return null;
  let exitCode = 1;
  for (const line of header.split("\n")) {
    const prefix = EXIT_LINES.find((p) => line.startsWith(p));
    if (prefix !== undefined && /^-?\d+$/.test(line.slice(prefix.length))) exitCode = Number(line.slice(prefix.length));
  }
  return { exitCode, text: body === -1 ? output : output.slice(body + OUTPUT_MARK.length) };
}
