/**
 * The agent's questions, asked in the editor. Approvals of commands, patches and MCP tool calls
 * become `session/request_permission` with four kinds of answer: allow once, allow always (for
 * the session: the core remembers it), reject once, reject always (remembered here: the same
 * command, files or tool are refused without asking again). A command the model proposes a
 * standing rule for also offers "always allow commands starting with …", which the core writes
 * to the user's rules. The model's multiple-choice questions and an MCP server's own questions go
 * out as an `elicitation/create` form when the editor takes forms; otherwise nobody can answer
 * and they are withdrawn (the model decides, the server is declined).
 *
 * When the core closes a question first (a `session/cancel` interrupted the turn), the request
 * still open in the editor is cancelled (`$/cancel_request`), so the editor answers it as
 * cancelled and stops showing it.
 */
import type { AgentContext, PermissionOption, RequestPermissionOutcome, SessionUpdate, ToolCall } from "@agentclientprotocol/sdk";
import type { QuestionRequest } from "../protocol/events.js";
import type { ExecApprovalDecision } from "../protocol/policy.js";
import type { QuestionAnswer } from "../protocol/ops.js";
import { displayCommand } from "../presentation/command-text.js";
import { answersFromElicitResult, elicitationAnswer, questionsElicitation } from "../presentation/question-form.js";
import { errorMessage } from "../util/errors.js";

export interface AskContext {
  sessionId: string;
  client: AgentContext;
  /** The editor takes `elicitation/create` forms. */
  forms: boolean;
  /** Sends updates in order (the tool call a question is about). */
  send(updates: SessionUpdate[]): Promise<void>;
  /** The question's tool call, created when it was not shown yet. */
  toolCallOf(request: QuestionRequest): { updates: SessionUpdate[]; toolCall: ToolCall };
  /** Marks a call refused before it began. */
  refused(callId: string): Promise<void>;
  answer(key: string, answer: QuestionAnswer): void;
  /** Where problems talking to the editor are reported (stderr). */
  log(message: string): void;
}

type Approval = Extract<QuestionRequest, { type: "exec_approval_request" | "apply_patch_approval_request" | "mcp_tool_call_approval_request" }>;

/** Option ids: what the core is told for each. */
const ALLOW_ONCE = "allow-once";
const ALLOW_SESSION = "allow-session";
const ALLOW_PREFIX = "allow-prefix";
const REJECT_ONCE = "reject-once";
const REJECT_ALWAYS = "reject-always";

export class EditorQuestions {
  /** Requests open in the editor, by question key. */
  private readonly open = new Map<string, AbortController>();
  /** What the user refused for the rest of the session ("reject always"). */
  private readonly refusedForSession = new Set<string>();

  constructor(private readonly ctx: AskContext) {}

  /** Asks the editor (without holding up the event stream); the answer goes to the core. */
  ask(key: string, request: QuestionRequest): void {
    const controller = new AbortController();
    this.open.set(key, controller);
    void this.askEditor(key, request, controller.signal)
      .catch((err: unknown) => {
        this.ctx.log(`the editor could not be asked (${errorMessage(err)}); the question is withdrawn`);
        return { type: "cancel" } as const;
      })
      .then((answer) => {
        // Closed by the core meanwhile (an interrupt): it needs no answer any more.
        if (!this.open.delete(key)) return;
        this.ctx.answer(key, answer);
      });
  }

  /** The core closed the question: a request still open in the editor is cancelled. */
  resolved(key: string): void {
    const controller = this.open.get(key);
    this.open.delete(key);
    controller?.abort();
  }

  private async askEditor(key: string, request: QuestionRequest, signal: AbortSignal): Promise<QuestionAnswer> {
    switch (request.type) {
      case "exec_approval_request":
      case "apply_patch_approval_request":
      case "mcp_tool_call_approval_request":
        return this.approval(request, signal);
      case "request_user_input":
        return this.userInput(request, signal);
      case "elicitation_request":
        return this.elicitation(request, signal);
    }
  }

  private async approval(request: Approval, signal: AbortSignal): Promise<QuestionAnswer> {
    const subject = subjectOf(request);
    if (this.refusedForSession.has(subject)) {
      await this.ctx.refused(request.call_id);
      return { type: "decision", decision: "denied" };
    }
    const { updates, toolCall } = this.ctx.toolCallOf(request);
    await this.ctx.send(updates);
    const response = await this.ctx.client.request(
      "session/request_permission",
      { sessionId: this.ctx.sessionId, toolCall, options: optionsFor(request) },
      { cancellationSignal: signal },
    );
    const decision = decisionOf(response.outcome, request);
    if (response.outcome.outcome === "selected" && response.outcome.optionId === REJECT_ALWAYS) this.refusedForSession.add(subject);
    if (decision === null) {
      await this.ctx.refused(request.call_id);
      return { type: "cancel" };
    }
    if (decision === "denied") await this.ctx.refused(request.call_id);
    return { type: "decision", decision };
  }

  private async userInput(request: Extract<QuestionRequest, { type: "request_user_input" }>, signal: AbortSignal): Promise<QuestionAnswer> {
    if (!this.ctx.forms) return { type: "cancel" };
    const form = questionsElicitation(request);
    const result = await this.ctx.client.request(
      "elicitation/create",
      { mode: "form", sessionId: this.ctx.sessionId, message: form.message, requestedSchema: form.requestedSchema },
      { cancellationSignal: signal },
    );
    return { type: "user_input", response: answersFromElicitResult(result) };
  }

  private async elicitation(request: Extract<QuestionRequest, { type: "elicitation_request" }>, signal: AbortSignal): Promise<QuestionAnswer> {
    if (!this.ctx.forms) return { type: "elicitation", action: "decline" };
    const schema = request.requested_schema;
    const requestedSchema = typeof schema === "object" && schema !== null ? (schema as Record<string, unknown>) : { type: "object", properties: {} };
    const result = await this.ctx.client.request(
      "elicitation/create",
      { mode: "form", sessionId: this.ctx.sessionId, message: `${request.server_name}: ${request.message}`, requestedSchema },
      { cancellationSignal: signal },
    );
    return elicitationAnswer(result);
  }
}

/** What "reject always" remembers: the same command, the same files, the same tool. */
function subjectOf(request: Approval): string {
  switch (request.type) {
    case "exec_approval_request":
      return `command:${request.cwd}:${displayCommand(request.command)}`;
    case "apply_patch_approval_request":
      return `files:${Object.keys(request.changes).sort().join("\n")}`;
    case "mcp_tool_call_approval_request":
      return `tool:${request.server}/${request.tool}`;
  }
}

function optionsFor(request: Approval): PermissionOption[] {
  const always: PermissionOption = { optionId: ALLOW_SESSION, kind: "allow_always", name: "Allow for this session" };
  const options: PermissionOption[] = [{ optionId: ALLOW_ONCE, kind: "allow_once", name: "Allow" }];
  switch (request.type) {
    case "exec_approval_request": {
      options.push({ ...always, name: "Allow this command for this session" });
      const prefix = request.proposed_execpolicy_amendment;
      if (prefix && prefix.length > 0) options.push({ optionId: ALLOW_PREFIX, kind: "allow_always", name: `Always allow commands starting with \`${displayCommand(prefix)}\`` });
      options.push({ optionId: REJECT_ONCE, kind: "reject_once", name: "Reject" }, { optionId: REJECT_ALWAYS, kind: "reject_always", name: "Reject this command for this session" });
      return options;
    }
    case "apply_patch_approval_request":
      options.push(
        { ...always, name: request.grant_root ? `Allow writing in ${request.grant_root} for this session` : "Allow edits to these files for this session" },
        { optionId: REJECT_ONCE, kind: "reject_once", name: "Reject" },
        { optionId: REJECT_ALWAYS, kind: "reject_always", name: "Reject edits to these files for this session" },
      );
      return options;
    case "mcp_tool_call_approval_request":
      options.push(
        { ...always, name: `Allow ${request.tool} for this session` },
        { optionId: REJECT_ONCE, kind: "reject_once", name: "Reject" },
        { optionId: REJECT_ALWAYS, kind: "reject_always", name: `Reject ${request.tool} for this session` },
      );
      return options;
  }
}

/** The decision the editor's answer means; null when it was cancelled. */
function decisionOf(outcome: RequestPermissionOutcome, request: Approval): ExecApprovalDecision | null {
  if (outcome.outcome !== "selected") return null;
  switch (outcome.optionId) {
    case ALLOW_ONCE:
      return "approved";
    case ALLOW_SESSION:
      return "approved_for_session";
    case ALLOW_PREFIX:
      return request.type === "exec_approval_request" && request.proposed_execpolicy_amendment
        ? { approved_execpolicy_amendment: { proposed_execpolicy_amendment: request.proposed_execpolicy_amendment } }
        : "approved";
    default:
      // Reject, and anything the editor made up, refuses.
      return "denied";
  }
}
