/**
 * The app-server's v2 notifications for one thread, back as the core's events, so a front end
 * written for a local thread (the TUI) draws a remote one the same way: `turn/started` is
 * `task_started`, items become their begin / delta / end events, and a finished turn
 * `task_complete` or `turn_aborted`. Also rebuilds a thread's recorded turns as the events a
 * front end redraws (`initial_messages`), and after a reconnection the events of whatever
 * finished while the connection was down, so nothing in flight is lost.
 */
import type { EventMsg, RateLimitSnapshot, TokenUsageInfo } from "../protocol/events.js";
import type { ThreadItem, Turn, V2RateLimitSnapshot, ThreadTokenUsage, V2WebSearchAction, CommandAction, FileUpdateChange, JsonValue } from "../app-server-protocol/v2.js";
import { errorInfoFromV2, fileChangesFromV2, parsedCommands, planFromV2, rateLimitsFromV2, tokenUsageFromV2, webSearchActionFromV2 } from "../app-server-protocol/convert.js";
import { collabBeginEvent, collabEndEvent } from "../app-server-protocol/collab-convert.js";
import { goalFromV2, type V2ThreadGoal } from "../app-server-protocol/goals.js";
import { hookRunFromV2 } from "../app-server-protocol/hook-runs.js";
import type { V2HookRunSummary } from "../app-server-protocol/v2.js";
import { splitShellWords } from "../util/shell-words.js";

type Json = Record<string, unknown>;
type Item = ThreadItem & Json;

/** A command's argv from the protocol's one-line form. */
export function commandArgv(command: string): string[] {
  return splitShellWords(command) ?? [command];
}

const text = (v: unknown): string => (typeof v === "string" ? v : "");
const durationOf = (ms: unknown): { secs: number; nanos: number } => {
  const n = typeof ms === "number" && ms > 0 ? ms : 0;
  return { secs: Math.floor(n / 1000), nanos: (n % 1000) * 1_000_000 };
};

export class V2Events {
  private readonly started = new Set<string>();
  private readonly completed = new Set<string>();
  private readonly changes = new Map<string, FileUpdateChange[]>();
  private rateLimits: RateLimitSnapshot | null = null;
  private lastInfo: TokenUsageInfo | null = null;
  /** The turn in progress, as this client last heard of it. */
  activeTurnId: string | null = null;
  private lastAgentMessage: string | null = null;

  /** A notification's events (none for notifications a local thread has no event for). */
  notification(method: string, p: Json): EventMsg[] {
    switch (method) {
      case "turn/started": {
        const turn = p.turn as Turn;
        this.activeTurnId = turn.id;
        this.lastAgentMessage = null;
        return [{ type: "task_started", turn_id: turn.id, model_context_window: this.lastInfo?.model_context_window ?? null }];
      }
      case "turn/completed":
        return this.endTurn(p.turn as Turn);
      case "item/started":
        return this.itemStarted(p.item as Item, false);
      case "item/completed":
        return this.itemCompleted(p.item as Item, false);
      case "item/agentMessage/delta":
        return [{ type: "agent_message_delta", delta: text(p.delta) }];
      case "item/reasoning/summaryTextDelta":
        return [{ type: "agent_reasoning_delta", delta: text(p.delta) }];
      case "item/reasoning/summaryPartAdded":
        return [{ type: "agent_reasoning_section_break" }];
      case "item/reasoning/textDelta":
        return [{ type: "agent_reasoning_raw_content_delta", delta: text(p.delta) }];
      case "item/commandExecution/outputDelta":
        return [{ type: "exec_command_output_delta", call_id: text(p.itemId), stream: "stdout", chunk: Buffer.from(text(p.delta), "utf8").toString("base64") }];
      case "turn/plan/updated":
        return [{ type: "plan_update", explanation: typeof p.explanation === "string" ? p.explanation : null, plan: planFromV2((p.plan ?? []) as Array<{ step: string; status: string }>) }];
      case "turn/diff/updated":
        return [{ type: "turn_diff", unified_diff: text(p.diff) }];
      case "thread/tokenUsage/updated":
        this.lastInfo = tokenUsageFromV2(p.tokenUsage as ThreadTokenUsage);
        return [{ type: "token_count", info: this.lastInfo, rate_limits: this.rateLimits }];
      case "account/rateLimits/updated":
        this.rateLimits = rateLimitsFromV2(p.rateLimits as V2RateLimitSnapshot);
        return [];
      case "error": {
        const error = (p.error ?? {}) as Json;
        const info = errorInfoFromV2(error.codexErrorInfo);
        if (p.willRetry === true) return [{ type: "stream_error", message: text(error.message), codex_error_info: info, additional_details: typeof error.additionalDetails === "string" ? error.additionalDetails : null }];
        return [{ type: "error", message: text(error.message), codex_error_info: info }];
      }
      case "warning":
        return [{ type: "warning", message: text(p.message) }];
      case "mcpServer/startupStatus/updated": {
        const state = p.status === "ready" || p.status === "starting" || p.status === "cancelled" ? p.status : "failed";
        return [{ type: "mcp_startup_update", server: text(p.name), status: state === "failed" ? { state, error: text(p.error) } : { state } }];
      }
      case "thread/goal/updated":
        return [{ type: "thread_goal_updated", goal: goalFromV2(p.goal as V2ThreadGoal) }];
      case "thread/goal/cleared":
        return [{ type: "thread_goal_updated", goal: null }];
      case "hook/started":
      case "hook/completed": {
        const run = hookRunFromV2(p.run as V2HookRunSummary);
        const turnId = typeof p.turnId === "string" ? p.turnId : null;
        return run ? [{ type: method === "hook/started" ? "hook_started" : "hook_completed", turn_id: turnId, run }] : [];
      }
      default:
        return [];
    }
  }

  /** The changes of a file-change item this client has seen start (for its approval question). */
  changesOf(itemId: string): FileUpdateChange[] {
    return this.changes.get(itemId) ?? [];
  }

  /** The events a front end redraws a recorded conversation from (session_configured's `initial_messages`). */
  replay(turns: Turn[]): EventMsg[] {
    const out: EventMsg[] = [];
    for (const turn of turns) {
      for (const item of turn.items as Item[]) {
        out.push(...this.itemStarted(item, true), ...this.itemCompleted(item, true));
      }
      if (turn.status === "interrupted") out.push({ type: "turn_aborted", turn_id: turn.id, reason: "interrupted" });
    }
    return out;
  }

  /**
   * After a reconnection: the events for what happened while this client was away, from the
   * thread's turns as the server now has them (items it never saw finish, the end of its turn,
   * turns that started and ended meanwhile).
   */
  catchUp(turns: Turn[]): EventMsg[] {
    const out: EventMsg[] = [];
    const known = this.activeTurnId;
    const from = known === null ? turns.length : turns.findIndex((t) => t.id === known);
    for (const turn of turns.slice(Math.max(0, from))) {
      if (turn.id !== this.activeTurnId) out.push(...this.notification("turn/started", { turn }));
      for (const item of turn.items as Item[]) {
        if (!this.completed.has(item.id)) out.push(...this.itemStarted(item, false), ...this.itemCompleted(item, false));
      }
      if (turn.status !== "inProgress") out.push(...this.endTurn(turn));
    }
    return out;
  }

  private endTurn(turn: Turn): EventMsg[] {
    if (this.activeTurnId !== turn.id) return [];
    this.activeTurnId = null;
    const last = this.lastAgentMessage;
    this.lastAgentMessage = null;
    switch (turn.status) {
      case "interrupted":
        return [{ type: "turn_aborted", turn_id: turn.id, reason: "interrupted" }];
      case "failed":
        return [...(turn.error ? [{ type: "error" as const, message: turn.error.message, codex_error_info: errorInfoFromV2(turn.error.codexErrorInfo) }] : []), { type: "task_complete", turn_id: turn.id, last_agent_message: last }];
      default:
        return [{ type: "task_complete", turn_id: turn.id, last_agent_message: last }];
    }
  }

  private itemStarted(item: Item, replay: boolean): EventMsg[] {
    if (this.started.has(item.id) && !replay) return [];
    this.started.add(item.id);
    switch (item.type) {
      case "userMessage": {
        const content = item.content as Array<Json>;
        const message = content.flatMap((c) => (c.type === "text" ? [text(c.text)] : [])).join("\n");
        const images = content.flatMap((c) => (c.type === "image" ? [text(c.url)] : []));
        return [{ type: "user_message", message, images: images.length > 0 ? images : null }];
      }
      case "commandExecution":
        if (replay) return [];
        return [{ type: "exec_command_begin", call_id: item.id, command: commandArgv(text(item.command)), cwd: text(item.cwd), parsed_cmd: parsedCommands(item.commandActions as CommandAction[]), ...(item.source === "userShell" ? { source: "user_shell" as const } : {}) }];
      case "fileChange":
        this.changes.set(item.id, item.changes as FileUpdateChange[]);
        return [{ type: "patch_apply_begin", call_id: item.id, auto_approved: true, changes: fileChangesFromV2(item.changes as FileUpdateChange[]) }];
      case "mcpToolCall":
        if (replay) return [];
        return [{ type: "mcp_tool_call_begin", call_id: item.id, invocation: { server: text(item.server), tool: text(item.tool), arguments: item.arguments } }];
      case "webSearch":
        return replay ? [] : [{ type: "web_search_begin", call_id: item.id }];
      case "collabAgentToolCall":
        return replay ? [] : [collabBeginEvent(item)];
      case "enteredReviewMode":
        return [{ type: "entered_review_mode", target: { type: "custom", instructions: text(item.review) }, user_facing_hint: text(item.review) }];
      case "contextCompaction":
        return [{ type: "context_compacted" }];
      case "imageView":
        return [{ type: "view_image_tool_call", call_id: item.id, path: text(item.path) }];
      default:
        return [];
    }
  }

  private itemCompleted(item: Item, replay: boolean): EventMsg[] {
    if (this.completed.has(item.id) && !replay) return [];
    this.completed.add(item.id);
    switch (item.type) {
      case "agentMessage":
        this.lastAgentMessage = text(item.text);
        return [{ type: "agent_message", message: text(item.text) }];
      case "reasoning":
        return [{ type: "agent_reasoning", text: ((item.summary ?? []) as string[]).join("\n\n") }];
      case "commandExecution": {
        // A declined command never ran: its question's answer is all there is to show.
        if (item.status === "declined") return [];
        const output = text(item.aggregatedOutput);
        return [
          {
            type: "exec_command_end",
            call_id: item.id,
            command: commandArgv(text(item.command)),
            cwd: text(item.cwd),
            stdout: output,
            stderr: "",
            aggregated_output: output,
            exit_code: typeof item.exitCode === "number" ? item.exitCode : item.status === "completed" ? 0 : 1,
            duration: durationOf(item.durationMs),
            formatted_output: output,
            ...(item.source === "userShell" ? { source: "user_shell" as const } : {}),
          },
        ];
      }
      case "fileChange":
        if (item.status === "declined") return [];
        return [{ type: "patch_apply_end", call_id: item.id, stdout: "", stderr: item.status === "failed" ? "the patch could not be applied" : "", success: item.status === "completed" }];
      case "mcpToolCall": {
        const result = item.result as { content: JsonValue[]; structuredContent: JsonValue | null } | null;
        const error = item.error as { message: string } | null;
        return [
          {
            type: "mcp_tool_call_end",
            call_id: item.id,
            invocation: { server: text(item.server), tool: text(item.tool), arguments: item.arguments },
            duration: durationOf(item.durationMs),
            result: result ? { Ok: { content: result.content, ...(result.structuredContent !== null ? { structuredContent: result.structuredContent } : {}), ...(item.status === "failed" ? { isError: true } : {}) } } : { Err: error?.message ?? "failed" },
          },
        ];
      }
      case "webSearch": {
        const action = webSearchActionFromV2(item.action as V2WebSearchAction | null);
        return [{ type: "web_search_end", call_id: item.id, query: text(item.query), action }];
      }
      case "collabAgentToolCall":
        return item.status === "inProgress" || item.status === "interrupted" ? [] : [collabEndEvent(item)];
      case "exitedReviewMode":
        return [{ type: "exited_review_mode", review_output: { findings: [], overall_correctness: "", overall_explanation: text(item.review), overall_confidence_score: 0 } }];
      default:
        return [];
    }
  }
}
