/**
 * `codex-ts mcp-server`: the agent as an MCP server (stdio), following the reference's
 * codex-rs/mcp-server. Two tools: `codex` starts a thread (a core Session) and runs one turn,
 * `codex-reply` runs another turn on a thread by id. While a turn runs, every core Event is sent
 * to the client as a `codex/event` notification whose params are the event (`{id, msg}`) plus
 * `_meta: {requestId, threadId}` (requestId: the `tools/call` being answered). Approvals become
 * `elicitation/create` requests carrying the reference's `codex_*` fields; the client's answer
 * (`action: accept` → approved, `decline`/`cancel` → denied, or a reference-style `decision`)
 * goes back to the session as an exec_approval / patch_approval op. The tool result is the
 * turn's last agent message: text content plus `structuredContent: {threadId, content}`.
 * Threads live until the server exits; cancelling a `tools/call` interrupts its turn. Threads are
 * recorded as rollouts, so `codex-reply` also continues a recorded thread this process does not
 * hold (after a restart, or one `exec` started).
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  ResultSchema,
  type CallToolResult,
  type Notification,
  type Request,
  type RequestId,
  type Result,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { ConfigError } from "../config/overrides.js";
import type { Event, EventMsg, QuestionRequest } from "../protocol/events.js";
import type { QuestionAnswer } from "../protocol/ops.js";
import type { ReviewDecision } from "../protocol/policy.js";
import { shellJoin } from "../util/shell-quote.js";
import { packageVersion } from "../util/version.js";
import { codexToolConfig, type SessionEnvironment } from "./start-session.js";
import { FrontEndHost } from "../host/front-end-host.js";
import type { EventListener, HostedThread } from "../host/hosted-thread.js";
import { answersFromElicitResult, elicitationAnswer, questionsElicitation } from "../presentation/question-form.js";
import { CODEX_REPLY_TOOL, CODEX_TOOL, ParamsError, parseCodexParams, parseReplyParams, type CodexToolParams } from "./tools.js";
import { errorMessage } from "../util/errors.js";

/** `codex/event`: one core Event, with the MCP request it belongs to. */
interface CodexEventNotification extends Notification {
  method: "codex/event";
  params: { _meta: { requestId?: RequestId; threadId: string }; id: string; msg: EventMsg };
}

type CodexServer = Server<Request, CodexEventNotification, Result>;
type Extra = RequestHandlerExtra<ServerRequest | Request, ServerNotification | CodexEventNotification>;

export type McpServerOptions = Partial<SessionEnvironment>;

/** How long a client may take to answer an approval (a person may be deciding): a day. */
const ELICITATION_TIMEOUT_MS = 24 * 60 * 60 * 1000;

function textResult(text: string, isError?: boolean): CallToolResult {
  return { content: [{ type: "text", text }], ...(isError ? { isError: true } : {}) };
}

function threadResult(threadId: string, text: string, isError?: boolean): CallToolResult {
  return { ...textResult(text, isError), structuredContent: { threadId, content: text } };
}

/** A decision from the client's elicitation answer; anything unrecognised denies. */
export function decisionFromElicitResult(result: Record<string, unknown>): ReviewDecision {
  const decisions: readonly string[] = ["approved", "approved_for_session", "denied", "abort"];
  const content = result.content;
  const explicit = result.decision ?? (typeof content === "object" && content !== null ? (content as Record<string, unknown>).decision : undefined);
  if (typeof explicit === "string" && decisions.includes(explicit)) return explicit as ReviewDecision;
  return result.action === "accept" ? "approved" : "denied";
}

/** The MCP request a turn answers: where its notifications and questions go. */
interface Call {
  requestId: RequestId;
  extra: Extra;
}

/**
 * The client side of one thread's questions and notifications: every event goes to the client
 * as `codex/event` (with the request it belongs to while a turn runs), and questions asked during
 * a call become `elicitation/create` requests whose answers go back as `answer_question`.
 */
class ClientRelay {
  constructor(
    private readonly server: CodexServer,
    private readonly thread: HostedThread,
  ) {}

  get threadId(): string {
    return this.thread.threadId;
  }

  /** The listener for one call's turn. */
  forCall(call: Call): EventListener {
    return async (event) => {
      await this.notify(event, call);
      if (event.msg.type === "question_asked") void this.ask(event.msg.key, event.msg.request, event.id, call);
    };
  }

  /** The listener between calls: notifications only (nobody is there to answer a question). */
  readonly idle: EventListener = (event) => this.notify(event, null);

  private async notify(event: Event, call: Call | null): Promise<void> {
    // Questions go out as the reference's own request events; their resolution is ours alone.
    if (event.msg.type === "question_resolved") return;
    const msg = event.msg.type === "question_asked" ? event.msg.request : event.msg;
    const params = { _meta: { ...(call ? { requestId: call.requestId } : {}), threadId: this.threadId }, id: event.id, msg };
    const notification: CodexEventNotification = { method: "codex/event", params };
    try {
      if (call) await call.extra.sendNotification(notification);
      else await this.server.notification(notification);
    } catch {
      // The client went away; the turn still finishes and its result is dropped.
    }
  }

  /** Relays a question to the client as an elicitation and answers it with what came back. */
  private async ask(key: string, request: QuestionRequest, eventId: string, call: Call): Promise<void> {
    const answer = await this.answerFromClient(request, eventId, call);
    this.thread.submit({ type: "answer_question", key, answer });
  }

  private answerFromClient(request: QuestionRequest, eventId: string, call: Call): Promise<QuestionAnswer> {
    switch (request.type) {
      case "exec_approval_request":
        return this.askExec(request, eventId, call);
      case "apply_patch_approval_request":
        return this.askPatch(request, eventId, call);
      case "mcp_tool_call_approval_request":
        return this.askMcpTool(request, eventId, call);
      case "elicitation_request":
        return this.relayElicitation(request, call);
      case "request_user_input":
        return this.askQuestions(request, eventId, call);
    }
  }

  private async askExec(msg: Extract<EventMsg, { type: "exec_approval_request" }>, eventId: string, call: Call): Promise<QuestionAnswer> {
    const params = {
      message: `Allow Codex to run \`${shellJoin(msg.command)}\` in \`${msg.cwd}\`?`,
      requestedSchema: { type: "object" as const, properties: {} },
      threadId: this.threadId,
      codex_elicitation: "exec-approval",
      codex_mcp_tool_call_id: String(call.requestId),
      codex_event_id: eventId,
      codex_call_id: msg.call_id,
      codex_command: msg.command,
      codex_cwd: msg.cwd,
      codex_parsed_cmd: msg.parsed_cmd,
    };
    return this.decision(params, call);
  }

  private async askPatch(msg: Extract<EventMsg, { type: "apply_patch_approval_request" }>, eventId: string, call: Call): Promise<QuestionAnswer> {
    const lines = [...(msg.reason !== undefined ? [msg.reason] : []), "Allow Codex to apply proposed code changes?"];
    const params = {
      message: lines.join("\n"),
      requestedSchema: { type: "object" as const, properties: {} },
      threadId: this.threadId,
      codex_elicitation: "patch-approval",
      codex_mcp_tool_call_id: String(call.requestId),
      codex_event_id: eventId,
      codex_call_id: msg.call_id,
      ...(msg.reason !== undefined ? { codex_reason: msg.reason } : {}),
      ...(msg.grant_root !== undefined ? { codex_grant_root: msg.grant_root } : {}),
      codex_changes: msg.changes,
    };
    return this.decision(params, call);
  }

  /** Relays request_user_input questions; without an answer from the client they stay unanswered. */
  private async askQuestions(msg: Extract<EventMsg, { type: "request_user_input" }>, eventId: string, call: Call): Promise<QuestionAnswer> {
    const params = {
      ...questionsElicitation(msg),
      threadId: this.threadId,
      codex_elicitation: "request-user-input",
      codex_mcp_tool_call_id: String(call.requestId),
      codex_event_id: eventId,
      codex_call_id: msg.call_id,
    };
    // No answer is treated like a declined form: the model hears that nothing was answered.
    const result = (await this.request(params, call)) ?? {};
    return { type: "user_input", response: answersFromElicitResult(result) };
  }

  /** An MCP tool call waiting for approval, asked as a confirmation with our `mcp-tool-call-approval` marker. */
  private async askMcpTool(msg: Extract<EventMsg, { type: "mcp_tool_call_approval_request" }>, eventId: string, call: Call): Promise<QuestionAnswer> {
    const params = {
      message: msg.question,
      requestedSchema: { type: "object" as const, properties: {} },
      threadId: this.threadId,
      codex_elicitation: "mcp-tool-call-approval",
      codex_mcp_tool_call_id: String(call.requestId),
      codex_event_id: eventId,
      codex_call_id: msg.call_id,
      codex_server: msg.server,
      codex_tool: msg.tool,
      codex_arguments: msg.arguments,
    };
    return this.decision(params, call);
  }

  /** A question from one of the thread's own MCP servers, passed on to our client as it was asked. */
  private async relayElicitation(msg: Extract<EventMsg, { type: "elicitation_request" }>, call: Call): Promise<QuestionAnswer> {
    const requestedSchema = msg.requested_schema ?? { type: "object", properties: {} };
    return elicitationAnswer(await this.request({ message: msg.message, requestedSchema }, call));
  }

  /** Asks the client for an approval; a client without elicitation support, an error or a timeout denies. */
  private async decision(params: { message: string; requestedSchema: { type: "object"; properties: Record<string, never> } }, call: Call): Promise<QuestionAnswer> {
    const result = await this.request(params, call);
    return { type: "decision", decision: result ? decisionFromElicitResult(result) : "denied" };
  }

  /** Sends `elicitation/create`; null when the client cannot answer, fails or times out. */
  private async request(params: { message: string; requestedSchema: unknown }, call: Call): Promise<Record<string, unknown> | null> {
    if (!this.server.getClientCapabilities()?.elicitation) return null;
    try {
      return await call.extra.sendRequest({ method: "elicitation/create", params }, ResultSchema, { timeout: ELICITATION_TIMEOUT_MS });
    } catch {
      return null;
    }
  }}

/** Runs one turn with `prompt` for a `tools/call`; cancelling the request interrupts it. */
async function runCall(relay: ClientRelay, thread: HostedThread, prompt: string, extra: Extra): Promise<CallToolResult> {
  const call: Call = { requestId: extra.requestId, extra };
  let running = true;
  const outcome = await thread.runTurn({ type: "user_input", items: [{ type: "text", text: prompt }] }, relay.forCall(call), () => {
    extra.signal.addEventListener("abort", () => {
      if (running) thread.submit({ type: "interrupt" });
    });
  });
  running = false;
  switch (outcome.status) {
    case "completed":
      return threadResult(thread.threadId, outcome.lastAgentMessage ?? "");
    case "failed":
      return threadResult(thread.threadId, outcome.error ?? "the turn failed", true);
    case "aborted":
      return threadResult(thread.threadId, `Turn aborted (${outcome.abortReason}).`, true);
    case "ended":
      return threadResult(thread.threadId, "Codex session ended", true);
  }
}

export interface CodexMcpServer {
  server: CodexServer;
  /** Shuts down every thread's session. */
  close(): Promise<void>;
}

export function createMcpServer(options: McpServerOptions = {}): CodexMcpServer {
  const where: SessionEnvironment = { env: options.env ?? process.env, cwd: options.cwd ?? process.cwd() };
  // The host holds the threads; a thread it does not hold is resumed from its file by id.
  const host = new FrontEndHost("mcp", where.env);
  const server: CodexServer = new Server<Request, CodexEventNotification, Result>(
    { name: "codex-mcp-server", title: "Codex", version: packageVersion() },
    { capabilities: { tools: { listChanged: true } } },
  );
  /** The thread's relay; events between calls go to the client without a request id. */
  const relayFor = (thread: HostedThread): ClientRelay => {
    const relay = new ClientRelay(server, thread);
    // The pump starts with the first turn, so what the thread said before it (session_configured) belongs to that call.
    thread.setIdleListener(relay.idle);
    return relay;
  };

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [CODEX_TOOL, CODEX_REPLY_TOOL] }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    if (name === "codex") {
      let params: CodexToolParams;
      try {
        params = parseCodexParams(args);
      } catch (err) {
        if (err instanceof ParamsError) return textResult(`Failed to parse configuration for Codex tool: ${err.message}`, true);
        throw err;
      }
      let thread: HostedThread;
      try {
        const config = codexToolConfig(params, where);
        thread = await host.open({
          config,
          ...(params.developerInstructions !== undefined ? { developerInstructions: params.developerInstructions } : {}),
          ...(params.baseInstructions !== undefined ? { baseInstructions: params.baseInstructions } : {}),
        });
        await host.ready(thread);
      } catch (err) {
        const prefix = err instanceof ConfigError ? "Failed to load Codex configuration from overrides" : "Failed to start Codex session";
        return textResult(`${prefix}: ${errorMessage(err)}`, true);
      }
      return runCall(relayFor(thread), thread, params.prompt, extra);
    }
    if (name === "codex-reply") {
      let params: { threadId: string; prompt: string };
      try {
        params = parseReplyParams(args);
      } catch (err) {
        if (err instanceof ParamsError) return textResult(`Failed to parse configuration for Codex tool: ${err.message}`, true);
        throw err;
      }
      let thread: HostedThread | null;
      try {
        thread = await host.resume(params.threadId, where.cwd);
      } catch (err) {
        const prefix = err instanceof ConfigError ? "Failed to load Codex configuration" : "Failed to resume Codex session";
        return threadResult(params.threadId, `${prefix}: ${errorMessage(err)}`, true);
      }
      if (!thread) {
        // With structuredContent matching the output schema, which clients check even on errors.
        return threadResult(params.threadId, `Session not found for thread_id: ${params.threadId}`, true);
      }
      return runCall(relayFor(thread), thread, params.prompt, extra);
    }
    return textResult(`Unknown tool '${name}'`, true);
  });

  return {
    server,
    close: async () => {
      await server.close();
      await host.shutdown();
    },
  };
}

/** Serves on `transport` until it closes; resolves then (after shutting the sessions down). */
export async function serveMcp(transport: Transport, options: McpServerOptions = {}): Promise<void> {
  const mcp = createMcpServer(options);
  const closed = new Promise<void>((resolveClosed) => {
    mcp.server.onclose = () => resolveClosed();
  });
  await mcp.server.connect(transport);
  await closed;
  await mcp.close();
}

/** `codex-ts mcp-server`: serves on stdin/stdout until stdin ends. Diagnostics go to stderr. */
export async function runMcpServer(): Promise<number> {
  const transport = new StdioServerTransport();
  process.stdin.on("end", () => void transport.close());
  await serveMcp(transport);
  return 0;
}
