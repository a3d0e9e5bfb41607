/**
 * A thread's core events as the app-server's item notifications: each message, reasoning block,
 * command, patch, MCP call, sub-agent tool call, web search, image view, review marker and
 * compaction becomes one v2 item with `item/started`, its deltas, and `item/completed`
 * (reference order and shapes);
 * plans, diffs, token usage and errors become their own notifications. Turn boundaries, thread
 * status and questions are the live thread's (live-thread.ts). Replaying a recorded thread
 * through the same mapper gives `thread/read` the items live clients saw.
 */
import type { EventMsg } from "../protocol/events.js";
import type { ItemNotification, Outgoing } from "./outgoing.js";
import type { CommandExecutionStatus, JsonValue, ThreadItem } from "../app-server-protocol/v2.js";
import {
  commandActions,
  errorInfoToV2,
  fileChangesToV2,
  planToV2,
  rateLimitsToV2,
  tokenUsageToV2,
  webSearchActionToV2,
} from "../app-server-protocol/convert.js";
import { reviewText } from "../presentation/review-text.js";
import { collabBeginItem, collabEndItem, isCollabBegin } from "../app-server-protocol/collab-convert.js";
import { shellJoin } from "../util/shell-quote.js";

type ItemOf<T extends ThreadItem["type"]> = Extract<ThreadItem, { type: T }>;
type Msg<T extends EventMsg["type"]> = Extract<EventMsg, { type: T }>;

const AGENT_MESSAGE_FIELDS = { phase: null, memoryCitation: null, delivery: null, questions: null } as const;

export class TurnItems {
  /** Items of the turn in the order they started (the turn's `items` in a read). */
  readonly items: ThreadItem[] = [];
  private readonly open = new Map<string, ThreadItem>();
  /** Ids of the items the mapper names itself (messages, reasoning, markers): the turn's id and a count, so a turn read back from its record gets the ids its live items had. */
  private named = 0;
  private agentMessageId: string | null = null;
  private reasoningId: string | null = null;
  private summaryIndex = 0;

  constructor(
    private readonly threadId: string,
    readonly turnId: string,
    /** The clock items are stamped with (none for a turn read back from its record). */
    private readonly now: () => number | null = Date.now,
  ) {}

  /** Whether an item with this id has started and not yet completed. */
  isOpen(id: string): boolean {
    return this.open.has(id);
  }

  /** The notifications `msg` stands for (none for events that are not about items). */
  map(msg: EventMsg): Outgoing[] {
    switch (msg.type) {
      case "user_message": {
        const images = (msg.images ?? []).map((url) => ({ type: "image" as const, url }));
        const item: ItemOf<"userMessage"> = { type: "userMessage", id: this.newId(), clientId: null, content: [{ type: "text", text: msg.message, text_elements: [] }, ...images] };
        return [...this.start(item), ...this.complete(item.id, {})];
      }
      case "agent_message_delta":
        return [...this.startAgentMessage(), this.delta("item/agentMessage/delta", this.agentMessageId ?? "", { delta: msg.delta })];
      case "agent_message": {
        const out = this.startAgentMessage();
        const id = this.agentMessageId ?? "";
        this.agentMessageId = null;
        return [...out, ...this.complete(id, { text: msg.message })];
      }
      case "agent_reasoning_delta":
        return [...this.startReasoning(), this.delta("item/reasoning/summaryTextDelta", this.reasoningId ?? "", { delta: msg.delta, summaryIndex: this.summaryIndex })];
      case "agent_reasoning_section_break": {
        const out = this.startReasoning();
        this.summaryIndex += 1;
        return [...out, this.delta("item/reasoning/summaryPartAdded", this.reasoningId ?? "", { summaryIndex: this.summaryIndex })];
      }
      case "agent_reasoning_raw_content_delta":
        return [...this.startReasoning(), this.delta("item/reasoning/textDelta", this.reasoningId ?? "", { delta: msg.delta, contentIndex: 0 })];
      case "agent_reasoning": {
        const out = this.startReasoning();
        const id = this.reasoningId ?? "";
        this.reasoningId = null;
        this.summaryIndex = 0;
        return [...out, ...this.complete(id, { summary: [msg.text] })];
      }
      case "exec_command_begin":
        return this.startCommand(msg);
      case "exec_command_output_delta":
        if (!this.open.has(msg.call_id)) return [];
        return [this.delta("item/commandExecution/outputDelta", msg.call_id, { delta: Buffer.from(msg.chunk, "base64").toString("utf8") })];
      case "exec_command_end":
        return this.endCommand(msg);
      case "patch_apply_begin":
        return this.startPatch(msg.call_id, msg.changes);
      case "patch_apply_end":
        return this.finish(msg.call_id, { status: msg.success ? "completed" : "failed" });
      case "patch_apply_rejected":
        return this.finish(msg.call_id, { status: "declined" });
      case "mcp_tool_call_begin":
        return this.start(mcpItem(msg.call_id, msg.invocation.server, msg.invocation.tool, msg.invocation.arguments));
      case "mcp_tool_call_end": {
        const out = this.open.has(msg.call_id) ? [] : this.start(mcpItem(msg.call_id, msg.invocation.server, msg.invocation.tool, msg.invocation.arguments));
        const durationMs = Math.round(msg.duration.secs * 1000 + msg.duration.nanos / 1e6);
        const ok = "Ok" in msg.result && msg.result.Ok.isError !== true;
        const result =
          "Ok" in msg.result
            ? { content: msg.result.Ok.content as JsonValue[], structuredContent: (msg.result.Ok.structuredContent ?? null) as JsonValue, _meta: (msg.result.Ok._meta ?? null) as JsonValue }
            : null;
        const error = "Err" in msg.result ? { message: msg.result.Err } : null;
        return [...out, ...this.complete(msg.call_id, { status: ok ? "completed" : "failed", result, error, durationMs })];
      }
      case "collab_agent_spawn_begin":
      case "collab_agent_interaction_begin":
      case "collab_waiting_begin":
      case "collab_resume_begin":
      case "collab_close_begin":
      case "collab_agent_spawn_end":
      case "collab_agent_interaction_end":
      case "collab_waiting_end":
      case "collab_resume_end":
      case "collab_close_end": {
        if (isCollabBegin(msg)) return this.open.has(msg.call_id) ? [] : this.start(collabBeginItem(msg));
        const done = collabEndItem(msg);
        return [...(this.open.has(done.id) ? [] : this.start({ ...done, status: "inProgress", agentsStates: {} })), ...this.complete(done.id, { ...done })];
      }
      case "web_search_begin":
        return this.start({ type: "webSearch", id: msg.call_id, query: "", action: null });
      case "web_search_end": {
        const out = this.open.has(msg.call_id) ? [] : this.start({ type: "webSearch", id: msg.call_id, query: "", action: null });
        return [...out, ...this.complete(msg.call_id, { query: msg.query, action: webSearchActionToV2(msg.action) })];
      }
      case "view_image_tool_call": {
        const item: ItemOf<"imageView"> = { type: "imageView", id: msg.call_id, path: msg.path };
        return [...this.start(item), ...this.complete(item.id, {})];
      }
      case "entered_review_mode":
        return this.instant({ type: "enteredReviewMode", id: this.newId(), review: msg.user_facing_hint ?? "" });
      case "exited_review_mode":
        return this.instant({ type: "exitedReviewMode", id: this.newId(), review: msg.review_output ? reviewText(msg.review_output) : "" });
      case "context_compacted":
        return [...this.instant({ type: "contextCompaction", id: this.newId() }), { method: "thread/compacted", params: { threadId: this.threadId, turnId: this.turnId } }];
      case "plan_update":
        return [{ method: "turn/plan/updated", params: { threadId: this.threadId, turnId: this.turnId, explanation: msg.explanation, plan: planToV2(msg.plan) } }];
      case "turn_diff":
        return [{ method: "turn/diff/updated", params: { threadId: this.threadId, turnId: this.turnId, diff: msg.unified_diff } }];
      case "token_count":
        return [
          ...(msg.info ? [{ method: "thread/tokenUsage/updated", params: { threadId: this.threadId, turnId: this.turnId, tokenUsage: tokenUsageToV2(msg.info) } }] : []),
          { method: "account/rateLimits/updated", params: { rateLimits: rateLimitsToV2(msg.rate_limits) } },
        ];
      case "stream_error":
        return [this.error(msg.message, errorInfoToV2(msg.codex_error_info), msg.additional_details, true)];
      case "error":
        return [this.error(msg.message, errorInfoToV2(msg.codex_error_info), null, false)];
      default:
        return [];
    }
  }

  /** A command waiting for approval shows as started, as the reference shows it, before the question. */
  startCommand(msg: Pick<Msg<"exec_command_begin">, "call_id" | "command" | "cwd" | "parsed_cmd" | "source">): Outgoing[] {
    if (this.open.has(msg.call_id)) return [];
    return this.start({
      type: "commandExecution",
      id: msg.call_id,
      pluginId: null,
      scriptPath: null,
      command: shellJoin(msg.command),
      cwd: msg.cwd,
      processId: null,
      source: msg.source === "user_shell" ? "userShell" : "agent",
      status: "inProgress",
      commandActions: commandActions(msg.parsed_cmd, msg.command),
      aggregatedOutput: null,
      exitCode: null,
      durationMs: null,
    });
  }

  /** A patch waiting for approval shows as started before the question. */
  startPatch(callId: string, changes: Msg<"patch_apply_begin">["changes"]): Outgoing[] {
    if (this.open.has(callId)) return [];
    return this.start({ type: "fileChange", id: callId, changes: fileChangesToV2(changes), status: "inProgress" });
  }

  /** The user declined the command or patch `id`: it completes without running. */
  decline(id: string): Outgoing[] {
    return this.finish(id, { status: "declined" });
  }

  /** Completes what is still open when the turn ends (an interrupt cut it short). */
  closeAll(): Outgoing[] {
    return [...this.open.keys()].flatMap((id) => {
      const item = this.open.get(id);
      const cutShort = item?.type === "commandExecution" || item?.type === "fileChange" || item?.type === "mcpToolCall" ? "failed" : item?.type === "collabAgentToolCall" ? "interrupted" : null;
      const status = cutShort === null ? {} : { status: cutShort };
      return this.complete(id, status);
    });
  }

  private endCommand(msg: Msg<"exec_command_end">): Outgoing[] {
    const out = this.startCommand({ ...msg, parsed_cmd: [{ type: "unknown", cmd: shellJoin(msg.command) }] });
    const status: CommandExecutionStatus = msg.exit_code === 0 ? "completed" : "failed";
    const durationMs = Math.round(msg.duration.secs * 1000 + msg.duration.nanos / 1e6);
    return [...out, ...this.complete(msg.call_id, { status, aggregatedOutput: msg.aggregated_output, exitCode: msg.exit_code, durationMs })];
  }

  private startAgentMessage(): Outgoing[] {
    if (this.agentMessageId !== null) return [];
    this.agentMessageId = this.newId();
    return this.start({ type: "agentMessage", moderation: null, id: this.agentMessageId, text: "", ...AGENT_MESSAGE_FIELDS });
  }

  private startReasoning(): Outgoing[] {
    if (this.reasoningId !== null) return [];
    this.reasoningId = this.newId();
    return this.start({ type: "reasoning", id: this.reasoningId, summary: [], content: [] });
  }

  private newId(): string {
    this.named += 1;
    return `${this.turnId}-${this.named}`;
  }

  private instant(item: ThreadItem): Outgoing[] {
    return [...this.start(item), ...this.complete(item.id, {})];
  }

  private start(item: ThreadItem): Outgoing[] {
    const startedAtMs = this.now();
    const stamped = { ...item, startedAtMs, completedAtMs: null } as ThreadItem;
    this.open.set(item.id, stamped);
    this.items.push(stamped);
    const params: ItemNotification = { item: { ...stamped }, threadId: this.threadId, turnId: this.turnId, startedAtMs };
    return [{ method: "item/started", params }];
  }

  private finish(id: string, fields: Partial<Record<string, unknown>>): Outgoing[] {
    return this.open.has(id) ? this.complete(id, fields) : [];
  }

  private complete(id: string, fields: Partial<Record<string, unknown>>): Outgoing[] {
    const item = this.open.get(id);
    if (!item) return [];
    this.open.delete(id);
    const completedAtMs = this.now();
    const done = { ...item, ...fields, completedAtMs } as ThreadItem;
    this.items[this.items.indexOf(item)] = done;
    const params: ItemNotification = { item: { ...done }, threadId: this.threadId, turnId: this.turnId, contentTokenCount: null, completedAtMs };
    return [{ method: "item/completed", params }];
  }

  private delta(method: string, itemId: string, fields: Record<string, unknown>): Outgoing {
    return { method, params: { threadId: this.threadId, turnId: this.turnId, itemId, ...fields } };
  }

  private error(message: string, codexErrorInfo: JsonValue | null, additionalDetails: string | null, willRetry: boolean): Outgoing {
    return { method: "error", params: { error: { message, codexErrorInfo, additionalDetails }, willRetry, threadId: this.threadId, turnId: this.turnId } };
  }
}

function mcpItem(id: string, server: string, tool: string, args: unknown): ItemOf<"mcpToolCall"> {
  return {
    type: "mcpToolCall",
    id,
    server,
    tool,
    status: "inProgress",
    arguments: (args ?? null) as JsonValue,
    appContext: null,
    mcpAppUi: null,
    pluginId: null,
    readOnlyHint: null,
    result: null,
    error: null,
    durationMs: null,
  };
}
