/**
 * A thread on an app-server, as a ThreadHandle: the same ops and events a local thread takes and
 * gives, carried by the app-server protocol. Ops become requests (a user turn is `turn/start`,
 * or `turn/steer` while one runs; an interrupt `turn/interrupt`; answers are the responses to
 * the server's requests), notifications become events (v2-events.ts), and each event carries the
 * id of the submission that caused it. While the connection is down, ops wait and open questions
 * are withdrawn; once it is back (RemoteClient resumes the thread) what finished meanwhile is
 * caught up, the queued ops go out, and the server asks its open questions again.
 */
import type { AgentRef } from "../protocol/collab.js";
import type { Event, EventMsg, QuestionRequest } from "../protocol/events.js";
import type { McpCallToolResult } from "../protocol/mcp-events.js";
import type { Op, QuestionAnswer, TurnOverrides, UserInput } from "../protocol/ops.js";
import type { AskForApproval, ReasoningEffort, SandboxPolicy } from "../protocol/policy.js";
import type { EventStream, ThreadHandle } from "../protocol/thread-handle.js";
import type { RequestId } from "../app-server-protocol/jsonrpc.js";
import type { FilesRestored, ThreadSettingsResponse, Turn, UserInputQuestion } from "../app-server-protocol/v2.js";
import {
  approvalFromV2,
  commandDecisionToV2,
  effortFromV2,
  inputToV2,
  parsedCommands,
  reviewDecisionToV2,
  sandboxFromV2,
  sandboxToV2,
  fileChangesFromV2,
} from "../app-server-protocol/convert.js";
import { goalFromV2, type V2ThreadGoal } from "../app-server-protocol/goals.js";
import { EventLog } from "./event-log.js";
import { mcpStatusEvents, type V2McpServerStatus } from "./mcp-status.js";
import { RemoteHooks } from "./remote-hooks.js";
import { RemoteError, type RpcConnection } from "./rpc-connection.js";
import { commandArgv, V2Events } from "./v2-events.js";
import { errorMessage } from "../util/errors.js";

type Json = Record<string, unknown>;

interface Settings {
  model: string;
  provider: string;
  cwd: string;
  approval: AskForApproval;
  sandbox: SandboxPolicy;
  effort: ReasoningEffort | null;
}

interface OpenQuestion {
  requestId: RequestId;
  method: string;
  /** The call the question is about (approvals and questions of the model), for the per-kind answer ops. */
  callId: string | null;
  /** An MCP tool-call approval asked as an elicitation: its answer is a decision. */
  toolApproval: boolean;
}

/** Where a RemoteThread sends its requests: the connection of the moment (null while it is down). */
export interface RemoteLink {
  connection(): RpcConnection | null;
  /** This handle is done: the client routes nothing more to it. */
  forget(thread: RemoteThread): void;
}

export class RemoteThread implements ThreadHandle {
  readonly threadId: string;
  private readonly log = new EventLog();
  private readonly events = new V2Events();
  private readonly hooks: RemoteHooks;
  private nextSub = 0;
  private settings: Settings;
  /** Settings changed since the last turn (`override_turn_context`): sent with the next `turn/start`. */
  private overrides: TurnOverrides = {};
  private readonly turnSubs = new Map<string, string>();
  private readonly questions = new Map<string, OpenQuestion>();
  /** Ops that waited for the connection to come back. */
  private readonly waiting: Array<{ subId: string; op: Op }> = [];
  private shuttingDown = false;
  /** MCP sign-ins this handle started, by login id: the op's submission each answers. */
  private readonly signIns = new Map<string, string>();

  constructor(
    response: ThreadSettingsResponse,
    private readonly link: RemoteLink,
  ) {
    this.threadId = response.thread.id;
    this.hooks = new RemoteHooks((method, params) => this.request(method, params), this.threadId);
    this.settings = settingsOf(response);
    const initial = this.events.replay(response.thread.turns.filter((t) => t.status !== "inProgress"));
    this.emit("", {
      type: "session_configured",
      session_id: this.threadId,
      model: this.settings.model,
      model_provider_id: this.settings.provider,
      approval_policy: this.settings.approval,
      sandbox_policy: this.settings.sandbox,
      cwd: this.settings.cwd,
      reasoning_effort: this.settings.effort,
      history_log_id: 0,
      history_entry_count: 0,
      rollout_path: response.thread.path,
      ...(initial.length > 0 ? { initial_messages: initial } : {}),
    });
    // A turn already running (a thread joined mid-turn): shown from where it is.
    const running = response.thread.turns.find((t) => t.status === "inProgress");
    if (running) this.catchUp([running]);
    void this.loadGoal();
  }

  /** The thread's goal as the server keeps it, for the UI's goal line (a server without goals has none to show). */
  private async loadGoal(): Promise<void> {
    try {
      const { goal } = await this.request<{ goal: V2ThreadGoal | null }>("thread/goal/get", { threadId: this.threadId });
      if (goal) this.emit("", { type: "thread_goal_updated", goal: goalFromV2(goal) });
    } catch {
      // No goals there (an older server, or one that keeps them elsewhere): nothing to show.
    }
  }

  // ------------------------------------------------------------------ ThreadHandle

  submit(op: Op): string {
    const subId = `r${this.nextSub++}`;
    if (this.link.connection() === null && op.type !== "shutdown") this.waiting.push({ subId, op });
    else void this.dispatch(subId, op);
    return subId;
  }

  nextEvent(): Promise<Event | null> {
    return this.log.next();
  }

  subscribe(): EventStream {
    return this.log.subscribe();
  }

  // ------------------------------------------------------------------ from the client

  notification(method: string, params: Json): void {
    if (method === "serverRequest/resolved") {
      const key = String(params.requestId);
      if (this.questions.delete(key)) this.emit(this.currentSub(), { type: "question_resolved", key, outcome: "answered" });
      return;
    }
    if (method === "mcpServer/oauthLogin/completed") {
      const sub = typeof params.loginId === "string" ? this.signIns.get(params.loginId) : undefined;
      if (sub === undefined) return;
      this.signIns.delete(String(params.loginId));
      this.emit(sub, { type: "mcp_sign_in_complete", server: typeof params.name === "string" ? params.name : "", success: params.success === true, ...(typeof params.error === "string" ? { error: params.error } : {}) });
      return;
    }
    if (method === "thread/closed" && !this.shuttingDown) {
      this.emit("", { type: "warning", message: "The server closed this thread." });
      return;
    }
    const turnId = typeof params.turnId === "string" ? params.turnId : method.startsWith("turn/") ? ((params.turn as Turn | undefined)?.id ?? null) : null;
    const sub = turnId !== null ? (this.turnSubs.get(turnId) ?? "") : this.currentSub();
    for (const msg of this.events.notification(method, params)) this.emit(sub, msg);
  }

  /** A question the server asks; `agent` names the sub-agent it comes from when it is not this thread's own. */
  serverRequest(requestId: RequestId, method: string, params: Json, agent?: AgentRef): void {
    const request = this.questionRequest(method, params, requestId);
    if (!request) {
      this.link.connection()?.respondError(requestId, { code: -32601, message: `${method} is not supported by this client` });
      return;
    }
    const key = String(requestId);
    const callId = "call_id" in request ? request.call_id : null;
    this.questions.set(key, { requestId, method, callId, toolApproval: request.type === "mcp_tool_call_approval_request" });
    this.emit(this.currentSub(), { type: "question_asked", key, request, ...(agent ? { agent } : {}) });
  }

  /** The connection dropped: its questions cannot be answered any more (the server asks again later). */
  disconnected(reason: string): void {
    for (const key of this.questions.keys()) this.emit(this.currentSub(), { type: "question_resolved", key, outcome: "cancelled" });
    this.questions.clear();
    this.emit("", { type: "warning", message: `Lost the connection to the app-server (${reason}); reconnecting…` });
  }

  /** The thread was resumed on a new connection: catch up on what happened, then send what waited. */
  reconnected(response: ThreadSettingsResponse): void {
    this.settings = { ...settingsOf(response), ...this.pendingSettings() };
    this.catchUp(response.thread.turns);
    this.emit("", { type: "warning", message: "Reconnected to the app-server." });
    void this.loadGoal();
    for (const { subId, op } of this.waiting.splice(0)) void this.dispatch(subId, op);
  }

  /** Ends this handle without leaving the thread (another handle of this client shows it now). */
  detach(): void {
    this.link.forget(this);
    this.emit("", { type: "shutdown_complete" });
  }

  /** The connection is gone for good. */
  ended(reason: string): void {
    this.emit("", { type: "error", message: `The app-server connection is gone: ${reason}`, codex_error_info: null });
    this.emit("", { type: "shutdown_complete" });
  }

  // ------------------------------------------------------------------ ops

  private async dispatch(subId: string, op: Op): Promise<void> {
    try {
      await this.run(subId, op);
    } catch (err) {
      this.emit(subId, { type: "error", message: errorMessage(err), codex_error_info: op.type === "thread_rollback" ? "thread_rollback_failed" : null });
    }
  }

  private request<T = Json>(method: string, params: unknown): Promise<T> {
    const connection = this.link.connection();
    if (!connection) return Promise.reject(new Error("not connected to the app-server"));
    return connection.request<T>(method, params);
  }

  private async run(subId: string, op: Op): Promise<void> {
    const threadId = this.threadId;
    switch (op.type) {
      case "user_input":
      case "user_turn": {
        const { type: _type, items, final_output_json_schema: schema, ...perTurn } = op as Extract<Op, { type: "user_turn" }>;
        return this.userTurn(subId, items, { ...this.overrides, ...perTurn }, schema);
      }
      case "override_turn_context": {
        const { type: _type, ...changes } = op;
        this.overrides = { ...this.overrides, ...changes };
        this.settings = { ...this.settings, ...this.pendingSettings() };
        const s = this.settings;
        this.emit(subId, { type: "settings_changed", model: s.model, reasoning_effort: s.effort, approval_policy: s.approval, sandbox_policy: s.sandbox, cwd: s.cwd });
        return;
      }
      case "interrupt": {
        const turnId = this.events.activeTurnId;
        if (turnId !== null) await this.request("turn/interrupt", { threadId, turnId });
        return;
      }
      case "answer_question":
        return this.answer(op.key, op.answer);
      case "exec_approval":
        return this.answerCall(op.id, { type: "decision", decision: op.decision });
      case "patch_approval":
      case "mcp_tool_call_approval":
        return this.answerCall(op.id, { type: "decision", decision: op.decision });
      case "user_input_answer":
        return this.answerCall(op.id, { type: "user_input", response: op.response });
      case "resolve_elicitation":
        return this.answer(String(op.request_id), { type: "elicitation", action: op.decision, ...(op.content ? { content: op.content } : {}) });
      case "review": {
        const started = await this.request<{ turn: Turn }>("review/start", { threadId, target: op.review_request.target });
        this.turnSubs.set(started.turn.id, subId);
        return;
      }
      case "compact":
        await this.request("thread/compact/start", { threadId });
        return;
      case "thread_rollback":
        return this.rollback(subId, op);
      case "undo":
      case "redo": {
        const files = await this.request<FilesRestored>(`thread/${op.type}`, { threadId, overwrite: op.overwrite ?? [] });
        this.emit(subId, undoCompleted(files));
        return;
      }
      case "run_user_shell_command":
        await this.request("thread/shellCommand", { threadId, command: op.command });
        return;
      case "list_skills": {
        const listed = await this.request<{ data: Array<{ cwd: string; skills: Json[]; errors: Array<{ path: string; message: string }> }> }>("skills/list", { cwds: op.cwds ?? [this.settings.cwd] });
        const skills = listed.data.map((entry) => ({
          cwd: entry.cwd,
          skills: entry.skills.map((s) => ({ name: String(s.name), description: String(s.description), ...(typeof s.shortDescription === "string" ? { short_description: s.shortDescription } : {}), path: String(s.path), scope: s.scope as "repo" | "user" | "admin" })),
          errors: entry.errors,
        }));
        this.emit(subId, { type: "list_skills_response", skills });
        return;
      }
      case "list_models": {
        const listed = await this.request<{ data: Array<{ model: string; isDefault: boolean }> }>("model/list", {});
        this.emit(subId, { type: "list_models_response", source: "catalog", models: listed.data.map((m) => ({ slug: m.model, is_default: m.isDefault })) });
        return;
      }
      // What the protocol has no method for: answered as a local thread would with nothing to list.
      case "list_custom_prompts":
        this.emit(subId, { type: "list_custom_prompts_response", custom_prompts: [] });
        return;
      case "list_mcp_tools": {
        // The server's view of this thread's servers: their states first (what `/mcp` shows per server), then the list.
        const { data } = await this.request<{ data: V2McpServerStatus[] }>("mcpServerStatus/list", { threadId });
        for (const msg of mcpStatusEvents(data)) this.emit(subId, msg);
        return;
      }
      case "get_history_entry_request":
        this.emit(subId, { type: "get_history_entry_response", offset: op.offset, log_id: op.log_id });
        return;
      case "add_to_history":
        return;
      case "read_mcp_resource": {
        const { contents } = await this.request<{ contents: unknown[] }>("mcpServer/resource/read", { threadId, server: op.server, uri: op.uri });
        this.emit(subId, { type: "mcp_resource_read_response", server: op.server, uri: op.uri, contents });
        return;
      }
      case "call_mcp_tool": {
        const result = await this.request<McpCallToolResult>("mcpServer/tool/call", { threadId, server: op.server, tool: op.tool, arguments: op.arguments });
        this.emit(subId, { type: "mcp_tool_call_response", server: op.server, tool: op.tool, result });
        return;
      }
      case "mcp_sign_in": {
        // The browser sign-in runs on the server; its callback listens on the server's machine.
        const { authorizationUrl, loginId } = await this.request<{ authorizationUrl: string; loginId: string | null }>("mcpServer/oauth/login", { name: op.server, threadId });
        if (loginId !== null) this.signIns.set(loginId, subId);
        this.emit(subId, { type: "mcp_sign_in_update", server: op.server, message: `Open this URL in a browser that can reach the app-server's machine: ${authorizationUrl}` });
        return;
      }
      case "restart_mcp_server":
        this.emit(subId, { type: "warning", message: `MCP server ${op.server} runs on the app-server; restart it there.` });
        return;
      case "reload_mcp_servers":
        this.emit(subId, { type: "warning", message: "The MCP servers run on the app-server, as its config.toml names them." });
        return;
      // Goals live on the server; their changes come back as thread/goal/updated and cleared.
      case "set_thread_goal":
        // The user's new goal replaces whatever there was, as in a local session.
        await this.request("thread/goal/clear", { threadId });
        await this.request("thread/goal/set", { threadId, objective: op.objective, ...(op.token_budget != null ? { tokenBudget: op.token_budget } : {}) });
        return;
      case "set_thread_goal_status":
        await this.request("thread/goal/set", { threadId, status: op.status });
        return;
      case "update_thread_goal":
        await this.request("thread/goal/set", { threadId, objective: op.objective, status: op.status, ...(op.token_budget != null ? { tokenBudget: op.token_budget } : {}) });
        return;
      case "clear_thread_goal":
        await this.request("thread/goal/clear", { threadId });
        return;
      case "list_hooks":
        this.emit(subId, await this.hooks.list());
        return;
      case "update_hook_state":
        this.emit(subId, await this.hooks.update(op.updates));
        return;
      case "shutdown":
        this.shuttingDown = true;
        try {
          await this.request("thread/unsubscribe", { threadId });
        } catch {
          // Gone already: nothing more to leave.
        }
        this.link.forget(this);
        this.emit(subId, { type: "shutdown_complete" });
        return;
    }
  }

  private async userTurn(subId: string, items: UserInput[], overrides: TurnOverrides, outputSchema: unknown): Promise<void> {
    const input = inputToV2(items);
    const active = this.events.activeTurnId;
    if (active !== null) {
      await this.request("turn/steer", { threadId: this.threadId, input, expectedTurnId: active });
      return;
    }
    const params: Json = { threadId: this.threadId, input };
    if (overrides.cwd !== undefined) params.cwd = overrides.cwd;
    if (overrides.model !== undefined) params.model = overrides.model;
    if (overrides.approval_policy !== undefined) params.approvalPolicy = overrides.approval_policy;
    if (overrides.sandbox_policy !== undefined) params.sandboxPolicy = sandboxToV2(overrides.sandbox_policy);
    if (overrides.effort !== undefined) params.effort = overrides.effort;
    if (overrides.summary !== undefined) params.summary = overrides.summary;
    if (overrides.collaboration_mode !== undefined) params.collaborationMode = { mode: overrides.collaboration_mode, settings: null };
    if (outputSchema !== undefined && outputSchema !== null) params.outputSchema = outputSchema;
    const started = await this.request<{ turn: Turn }>("turn/start", params);
    this.overrides = {};
    this.turnSubs.set(started.turn.id, subId);
  }

  /** A rollback, with the files put back first when asked (their result as the core reports it). */
  private async rollback(subId: string, op: Extract<Op, { type: "thread_rollback" }>): Promise<void> {
    const restore = op.restore ?? "conversation";
    let response: { files?: FilesRestored };
    try {
      response = await this.request("thread/rollback", { threadId: this.threadId, numTurns: op.num_turns, ...(restore === "conversation" ? {} : { restore, overwrite: op.overwrite ?? [] }) });
    } catch (err) {
      // The files could not be put back (nothing was): say why, then the rollback's error.
      const files = err instanceof RemoteError ? (err.data as { files?: FilesRestored } | undefined)?.files : undefined;
      if (files) this.emit(subId, undoCompleted(files));
      throw err;
    }
    if (response.files) this.emit(subId, undoCompleted(response.files));
    if (restore !== "code") this.emit(subId, { type: "thread_rolled_back", num_turns: op.num_turns });
  }

  private answerCall(callId: string, answer: QuestionAnswer): Promise<void> {
    const entry = [...this.questions].find(([, q]) => q.callId === callId);
    if (!entry) return Promise.reject(new Error(`no open question for call ${callId}`));
    return this.answer(entry[0], answer);
  }

  private async answer(key: string, answer: QuestionAnswer): Promise<void> {
    const question = this.questions.get(key);
    const connection = this.link.connection();
    if (!question || !connection) return;
    connection.respond(question.requestId, resultFor(question, answer));
  }

  // ------------------------------------------------------------------ helpers

  private questionRequest(method: string, p: Json, requestId: RequestId): QuestionRequest | null {
    const str = (v: unknown): string => (typeof v === "string" ? v : "");
    const turnId = str(p.turnId) || (this.events.activeTurnId ?? "");
    switch (method) {
      case "item/commandExecution/requestApproval":
        return {
          type: "exec_approval_request",
          call_id: str(p.itemId),
          turn_id: turnId,
          command: commandArgv(str(p.command)),
          cwd: str(p.cwd) || this.settings.cwd,
          ...(typeof p.reason === "string" ? { reason: p.reason } : {}),
          ...(Array.isArray(p.proposedExecpolicyAmendment) ? { proposed_execpolicy_amendment: p.proposedExecpolicyAmendment as string[] } : {}),
          parsed_cmd: parsedCommands(Array.isArray(p.commandActions) ? (p.commandActions as Parameters<typeof parsedCommands>[0]) : []),
        };
      case "item/fileChange/requestApproval": {
        const itemId = str(p.itemId);
        const changes = Array.isArray(p.changes) ? (p.changes as Parameters<typeof fileChangesFromV2>[0]) : this.events.changesOf(itemId);
        return {
          type: "apply_patch_approval_request",
          call_id: itemId,
          turn_id: turnId,
          changes: fileChangesFromV2(changes),
          ...(typeof p.reason === "string" ? { reason: p.reason } : {}),
          ...(typeof p.grantRoot === "string" ? { grant_root: p.grantRoot } : {}),
        };
      }
      case "item/tool/requestUserInput":
        return {
          type: "request_user_input",
          call_id: str(p.itemId),
          turn_id: turnId,
          questions: ((p.questions ?? []) as UserInputQuestion[]).map((q) => ({ id: q.id, header: q.header, question: q.question, isOther: q.isOther, isSecret: q.isSecret, ...(q.options ? { options: q.options } : {}) })),
        };
      case "mcpServer/elicitation/request": {
        const meta = (p._meta ?? {}) as Json;
        if (meta.codex_approval_kind === "mcp_tool_call") {
          return { type: "mcp_tool_call_approval_request", call_id: str(meta.callId), turn_id: turnId, server: str(p.serverName), tool: str(meta.tool), arguments: null, question: str(p.message) };
        }
        return { type: "elicitation_request", server_name: str(p.serverName), id: requestId, message: str(p.message), ...(p.requestedSchema !== undefined ? { requested_schema: p.requestedSchema } : {}) };
      }
      default:
        return null;
    }
  }

  private catchUp(turns: Turn[]): void {
    for (const turn of turns) if (!this.turnSubs.has(turn.id)) this.turnSubs.set(turn.id, "");
    const sub = (msg: EventMsg): string => ("turn_id" in msg && typeof msg.turn_id === "string" ? (this.turnSubs.get(msg.turn_id) ?? "") : this.currentSub());
    for (const msg of this.events.catchUp(turns)) this.emit(sub(msg), msg);
  }

  /** The submission of the turn in progress ("" when none, or one this client did not start). */
  private currentSub(): string {
    const turnId = this.events.activeTurnId;
    return turnId === null ? "" : (this.turnSubs.get(turnId) ?? "");
  }

  private pendingSettings(): Partial<Settings> {
    const o = this.overrides;
    return {
      ...(o.model !== undefined ? { model: o.model } : {}),
      ...(o.cwd !== undefined ? { cwd: o.cwd } : {}),
      ...(o.approval_policy !== undefined ? { approval: o.approval_policy } : {}),
      ...(o.sandbox_policy !== undefined ? { sandbox: o.sandbox_policy } : {}),
      ...(o.effort !== undefined ? { effort: o.effort } : {}),
    };
  }

  private emit(id: string, msg: EventMsg): void {
    this.log.emit({ id, msg });
  }
}

function settingsOf(r: ThreadSettingsResponse): Settings {
  return {
    model: r.model,
    provider: r.modelProvider,
    cwd: r.cwd,
    approval: approvalFromV2(r.approvalPolicy) ?? "on-request",
    sandbox: sandboxFromV2(r.sandbox),
    effort: effortFromV2(r.reasoningEffort),
  };
}

/** The client's result for a server request, from the core's answer. */
function resultFor(question: OpenQuestion, answer: QuestionAnswer): Json {
  switch (question.method) {
    case "item/commandExecution/requestApproval":
      return { decision: answer.type === "decision" ? commandDecisionToV2(answer.decision) : "cancel" };
    case "item/fileChange/requestApproval":
      return { decision: answer.type === "decision" && typeof answer.decision === "string" ? reviewDecisionToV2(answer.decision) : "cancel" };
    case "item/tool/requestUserInput":
      return { answers: answer.type === "user_input" ? answer.response.answers : {} };
    default: {
      if (question.toolApproval) {
        const decision = answer.type === "decision" ? answer.decision : "abort";
        return { action: decision === "approved" || decision === "approved_for_session" ? "accept" : decision === "denied" ? "decline" : "cancel", content: null, _meta: null };
      }
      if (answer.type === "elicitation") return { action: answer.action, content: answer.content ?? null, _meta: null };
      return { action: "cancel", content: null, _meta: null };
    }
  }
}

/** The app-server's answer to an undo, redo or rollback of files, as the core's event. */
function undoCompleted(files: FilesRestored): EventMsg {
  return { type: "undo_completed", success: files.success, message: files.message, action: files.action, restored: files.restored, conflicts: files.conflicts };
}
