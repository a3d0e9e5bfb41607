/**
 * Core events as ACP `session/update`s, for a live turn and for a replayed conversation alike:
 * `session/load` feeds the resumed thread's redraw events (session_configured's
 * `initial_messages`, the same ones the interactive UI redraws from) through the same mapping, so
 * the editor shows a loaded conversation as it showed it live.
 *
 * Messages and reasoning stream as chunks (a finished message is sent whole only when it did not
 * stream, as in a replay). Commands, patches, MCP tool calls, web searches and viewed images
 * become tool calls: created when they begin (or when the agent asks about them), updated as they
 * run, completed or failed when they end; an end without a begin (a replay) creates the call
 * already finished. Sub-agent tool calls are tool calls too (collab-calls.ts). Plans, usage and live notices (lines in the agent log for an editor that takes
 * no notices) complete the picture.
 */
import type { SessionUpdate, ToolCall, ToolCallContent, ToolCallStatus, ToolKind } from "@agentclientprotocol/sdk";
import type { EventMsg, QuestionRequest } from "../protocol/events.js";
import { isSuccessfulOutcome } from "../protocol/mcp-events.js";
import { webSearchActionDetail } from "../protocol/web-search.js";
import { reviewText } from "../presentation/review-text.js";
import { commandShape, fenced, mcpResultContent, mcpShape, patchShape, textContent, type CallShape } from "./tool-calls.js";
import { isCollabEvent } from "../presentation/collab-text.js";
import { collabBeginShape, collabEnd, isCollabBegin } from "./collab-calls.js";

export interface UpdateOptions {
  /** The session's working folder now (titles and locations are shown relative to it). */
  cwd: () => string;
  /**
   * The editor shows a command's output in a terminal of its own, fed through `_meta`
   * (`terminal_info`, `terminal_output`, `terminal_exit`: Zed's extension, offered in the
   * client's capabilities); otherwise the output is the call's text content when it ends.
   */
  terminalOutput: boolean;
  /** The editor takes `notice` updates (its `session.notices` capability). */
  notices: boolean;
  /** Where notices go when the editor takes none: its agent log (stderr). */
  log(message: string): void;
}

/** Output past this many characters is cut from the front when shown as text (the end matters most). */
const MAX_OUTPUT_CHARS = 64 * 1024;

interface OpenCall {
  /** A command's output chunks (base64 on the wire) as text; a character split between chunks waits for its end. */
  decoder: TextDecoder;
}

export class SessionUpdates {
  /** Tool calls shown and not yet finished, by call id. */
  private readonly open = new Map<string, OpenCall>();
  /** Every call id shown, finished or not: a second question about one updates it. */
  private readonly shown = new Set<string>();
  private textStreamed = false;
  private thoughtStreamed = false;

  constructor(private readonly options: UpdateOptions) {}

  map(msg: EventMsg, replay: boolean): SessionUpdate[] {
    if (msg.type !== "agent_reasoning" && msg.type !== "agent_reasoning_delta" && msg.type !== "agent_reasoning_section_break") this.thoughtStreamed = false;
    switch (msg.type) {
      case "user_message":
        // Live, the editor already shows what its user sent; a replay tells it.
        return replay && msg.message !== "" ? [{ sessionUpdate: "user_message_chunk", content: { type: "text", text: msg.message } }] : [];
      case "agent_message_delta":
        this.textStreamed = true;
        return [agentText(msg.delta)];
      case "agent_message": {
        const streamed = this.textStreamed;
        this.textStreamed = false;
        return streamed ? [] : [agentText(msg.message)];
      }
      case "agent_reasoning_delta":
        this.thoughtStreamed = true;
        return [thought(msg.delta)];
      case "agent_reasoning_section_break":
        return this.thoughtStreamed ? [thought("\n\n")] : [];
      case "agent_reasoning":
        return this.thoughtStreamed ? [] : [thought(msg.text)];
      case "exec_command_begin":
        return this.begin(msg.call_id, commandShape(msg.command, msg.cwd, msg.parsed_cmd), { command: msg.command, cwd: msg.cwd }, this.terminalStart(msg.call_id, msg.cwd, replay));
      case "exec_command_output_delta":
        // A replay shows no terminal (the command is not running): its output is the call's text when it ends.
        return replay ? [] : this.commandOutput(msg.call_id, msg.chunk);
      case "exec_command_end":
        return this.commandEnd(msg, replay);
      case "patch_apply_begin": {
        const shape = patchShape(msg.changes, this.options.cwd());
        return this.begin(msg.call_id, shape, { changes: msg.changes }, { content: shape.content });
      }
      case "patch_apply_end":
        return this.end(msg.call_id, msg.success ? "completed" : "failed", { title: "Edit files", kind: "edit", locations: [] }, {
          ...(msg.success ? {} : { content: [textContent(msg.stderr.trim() || "The patch could not be applied.")] }),
        });
      case "patch_apply_rejected":
        return this.end(msg.call_id, "failed", { title: "Edit files", kind: "edit", locations: [] }, { content: [textContent(`Refused: ${msg.reason}`)] });
      case "mcp_tool_call_begin":
        return this.begin(msg.call_id, mcpShape(msg.invocation), msg.invocation.arguments ?? {}, {});
      case "mcp_tool_call_end": {
        const result = msg.result;
        const content = "Ok" in result ? mcpResultContent(result.Ok) : [textContent(result.Err)];
        const rawOutput = "Ok" in result ? result.Ok : { error: result.Err };
        return this.end(msg.call_id, isSuccessfulOutcome(result) ? "completed" : "failed", mcpShape(msg.invocation), { content, rawOutput });
      }
      case "web_search_begin":
        return this.begin(msg.call_id, { title: "Searching the web", kind: "fetch", locations: [] }, {}, {});
      case "web_search_end":
        return this.end(msg.call_id, "completed", { title: `Web search: ${msg.query}`, kind: "fetch", locations: [] }, {
          title: `Web search: ${msg.query || webSearchActionDetail(msg.action)}`,
          rawOutput: msg.action,
        });
      case "view_image_tool_call":
        return [toolCall(msg.call_id, { title: `View image ${msg.path}`, kind: "read", locations: [{ path: msg.path }] }, "completed", { path: msg.path }, {})];
      case "plan_update":
        return [{ sessionUpdate: "plan", entries: msg.plan.map((p) => ({ content: p.step, priority: "medium", status: p.status })) }];
      case "exited_review_mode":
        return msg.review_output ? [agentText(reviewText(msg.review_output))] : [];
      case "token_count": {
        const info = msg.info;
        if (!info || info.model_context_window === null || replay) return [];
        return [{ sessionUpdate: "usage_update", used: info.last_token_usage.total_tokens, size: info.model_context_window }];
      }
      case "task_complete":
      case "turn_aborted":
        // Whatever the turn left unfinished (a call refused or cut off, live or in a replay) ends with it.
        return this.closeAll("failed");
      case "warning":
        return this.notice("warning", msg.message, null, replay);
      case "stream_error":
        return this.notice("info", msg.message, msg.additional_details, replay);
      case "context_compacted":
        return this.notice("info", "The conversation was summarised to free context.", null, replay);
      case "mcp_startup_complete":
        return msg.failed.flatMap((f) => this.notice("warning", `MCP server ${f.server} did not start: ${f.error}`, null, replay));
      default:
        return isCollabEvent(msg) ? this.collab(msg) : [];
    }
  }

  private collab(msg: Parameters<typeof isCollabBegin>[0] | Extract<EventMsg, { type: "sub_agent_status" }>): SessionUpdate[] {
    // A sub-agent's own progress shows in the calls that wait for it.
    if (msg.type === "sub_agent_status") return [];
    if (isCollabBegin(msg)) return this.begin(msg.call_id, collabBeginShape(msg), collabInput(msg), {});
    const { shape, failed, content } = collabEnd(msg);
    return this.end(msg.call_id, failed ? "failed" : "completed", shape, { title: shape.title, ...(content.length > 0 ? { content } : {}) });
  }

  /**
   * The tool call a question is about, as a permission request shows it: created now (pending)
   * when it was not shown yet, so the editor has it before it is asked.
   */
  questionCall(request: QuestionRequest): { updates: SessionUpdate[]; toolCall: ToolCall } {
    const cwd = this.options.cwd();
    switch (request.type) {
      case "exec_approval_request": {
        const shape = commandShape(request.command, request.cwd, request.parsed_cmd);
        const extra = request.reason !== undefined ? { content: [textContent(request.reason)] } : {};
        return this.pending(request.call_id, shape, { command: request.command, cwd: request.cwd }, extra);
      }
      case "apply_patch_approval_request": {
        const shape = patchShape(request.changes, cwd);
        const content = request.reason !== undefined ? [...shape.content, textContent(request.reason)] : shape.content;
        return this.pending(request.call_id, shape, { changes: request.changes }, { content });
      }
      case "mcp_tool_call_approval_request":
        return this.pending(request.call_id, mcpShape(request), request.arguments ?? {}, { content: [textContent(request.question)] });
      case "request_user_input":
        return this.pending(request.call_id, { title: request.questions.map((q) => q.header || q.question).join(", ") || "Question", kind: "think", locations: [] }, request.questions, {});
      case "elicitation_request":
        return this.pending(`elicitation-${request.server_name}-${String(request.id)}`, { title: `${request.server_name} asks`, kind: "other", locations: [] }, request.requested_schema ?? {}, {
          content: [textContent(request.message)],
        });
    }
  }

  /** A call the user said no to (or that was withdrawn) before it began: shown as failed now. */
  refused(callId: string): SessionUpdate[] {
    if (!this.open.has(callId)) return [];
    this.open.delete(callId);
    return [{ sessionUpdate: "tool_call_update", toolCallId: callId, status: "failed" }];
  }

  private pending(callId: string, shape: CallShape, rawInput: unknown, extra: Extra): { updates: SessionUpdate[]; toolCall: ToolCall } {
    const call: ToolCall = {
      toolCallId: callId,
      status: "pending",
      title: shape.title,
      kind: shape.kind,
      ...(shape.locations.length > 0 ? { locations: shape.locations } : {}),
      rawInput,
      ...extra,
    };
    const known = this.shown.has(callId);
    this.shown.add(callId);
    this.open.set(callId, { decoder: new TextDecoder() });
    return { updates: [known ? { sessionUpdate: "tool_call_update", ...call } : { sessionUpdate: "tool_call", ...call }], toolCall: call };
  }

  private begin(callId: string, shape: CallShape, rawInput: unknown, extra: Extra): SessionUpdate[] {
    const known = this.shown.has(callId);
    this.shown.add(callId);
    this.open.set(callId, { decoder: new TextDecoder() });
    if (known) return [{ sessionUpdate: "tool_call_update", toolCallId: callId, status: "in_progress", title: shape.title, kind: shape.kind, ...extra }];
    return [toolCall(callId, shape, "in_progress", rawInput, extra)];
  }

  /** Ends a call; one never shown (a replay, or an end without a begin) is created finished. */
  private end(callId: string, status: ToolCallStatus, shape: CallShape, extra: Extra): SessionUpdate[] {
    const known = this.shown.has(callId);
    this.shown.add(callId);
    this.open.delete(callId);
    if (known) return [{ sessionUpdate: "tool_call_update", toolCallId: callId, status, ...extra }];
    return [toolCall(callId, shape, status, undefined, extra)];
  }

  private terminalStart(callId: string, cwd: string, replay: boolean): Extra {
    if (!this.options.terminalOutput || replay) return {};
    return { content: [{ type: "terminal", terminalId: callId }], _meta: { terminal_info: { terminal_id: callId, cwd } } };
  }

  /** Output streams to the editor's terminal; without one, the call shows the whole output when it ends. */
  private commandOutput(callId: string, chunk: string): SessionUpdate[] {
    const call = this.open.get(callId);
    if (!call || !this.options.terminalOutput) return [];
    const data = call.decoder.decode(Buffer.from(chunk, "base64"), { stream: true });
    return data === "" ? [] : [{ sessionUpdate: "tool_call_update", toolCallId: callId, _meta: { terminal_output: { terminal_id: callId, data } } }];
  }

  private commandEnd(msg: Extract<EventMsg, { type: "exec_command_end" }>, replay: boolean): SessionUpdate[] {
    const status: ToolCallStatus = msg.exit_code === 0 ? "completed" : "failed";
    const shape = commandShape(msg.command, msg.cwd || this.options.cwd(), []);
    const rawOutput = { exit_code: msg.exit_code, duration: msg.duration };
    const terminal = this.options.terminalOutput && !replay && this.open.has(msg.call_id);
    if (terminal) {
      return this.end(msg.call_id, status, shape, { rawOutput, _meta: { terminal_exit: { terminal_id: msg.call_id, exit_code: msg.exit_code, signal: null } } });
    }
    const output = msg.aggregated_output.slice(-MAX_OUTPUT_CHARS);
    const content = output.trim() === "" ? [] : [textContent(fenced(output))];
    return this.end(msg.call_id, status, shape, { content, rawOutput });
  }

  private closeAll(status: ToolCallStatus): SessionUpdate[] {
    const ids = [...this.open.keys()];
    this.open.clear();
    return ids.map((toolCallId) => ({ sessionUpdate: "tool_call_update", toolCallId, status }));
  }

  /** A notice for the editor that takes them; a line in its agent log for one that does not (live only). */
  private notice(severity: "info" | "warning" | "error", message: string, detail: string | null, replay: boolean): SessionUpdate[] {
    const [title = "", ...rest] = message.trim().split("\n");
    const description = [rest.join("\n").trim(), detail?.trim() ?? ""].filter(Boolean).join("\n");
    if (title === "" || replay) return [];
    if (!this.options.notices) {
      this.options.log(`${severity}: ${title}${description ? `\n${description}` : ""}`);
      return [];
    }
    return [{ sessionUpdate: "notice", severity, title, ...(description ? { description } : {}) }];
  }
}

/** Optional tool-call fields an update adds. */
interface Extra {
  title?: string;
  content?: ToolCallContent[];
  rawOutput?: unknown;
  _meta?: Record<string, unknown>;
}

/** What a sub-agent call was asked to do, as the editor's raw input. */
function collabInput(msg: Parameters<typeof collabBeginShape>[0]): unknown {
  switch (msg.type) {
    case "collab_agent_spawn_begin":
      return { message: msg.prompt, model: msg.model };
    case "collab_agent_interaction_begin":
      return { target: msg.receiver_thread_id, message: msg.prompt };
    case "collab_waiting_begin":
      return { targets: msg.receiver_thread_ids };
    case "collab_resume_begin":
    case "collab_close_begin":
      return { target: msg.receiver_thread_id };
  }
}

function agentText(text: string): SessionUpdate {
  return { sessionUpdate: "agent_message_chunk", content: { type: "text", text } };
}

function thought(text: string): SessionUpdate {
  return { sessionUpdate: "agent_thought_chunk", content: { type: "text", text } };
}

function toolCall(callId: string, shape: CallShape, status: ToolCallStatus, rawInput: unknown, extra: Extra): SessionUpdate {
  const kind: ToolKind = shape.kind;
  return {
    sessionUpdate: "tool_call",
    toolCallId: callId,
    title: shape.title,
    kind,
    status,
    ...(shape.locations.length > 0 ? { locations: shape.locations } : {}),
    ...(rawInput !== undefined ? { rawInput } : {}),
    ...extra,
  };
}
