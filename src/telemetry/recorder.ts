/**
 * The OpenTelemetry events the reference emits (`codex.*`, PR #2103), shaped here so every
 * caller (the model clients, the tool router, the approval path, the session) reports the same
 * names and fields. A recorder adds the fields every event carries (conversation, model, app
 * version, terminal) and hands the record to a sink; without an exporter the sink is a no-op and
 * nothing else is loaded.
 */

export type TelemetryValue = string | number | boolean;
export type TelemetryAttributes = Record<string, TelemetryValue | undefined>;

/** Where records go: the OTel SDK's logger and meter (telemetry/otel.ts), or nowhere. */
export interface TelemetrySink {
  /** One log record named `name` (its `event.name`), with its attributes. */
  emit(name: string, attributes: Record<string, TelemetryValue>): void;
  /** Adds one to the counter `name`. */
  count(name: string, attributes: Record<string, TelemetryValue>): void;
}

export const NO_SINK: TelemetrySink = { emit: () => undefined, count: () => undefined };

/** What every record of one conversation carries. */
export interface ConversationIdentity {
  conversationId: string;
  appVersion: string;
  terminalType: string;
  authMode?: string;
  accountId?: string;
  email?: string;
}

/** Tool output in a record is capped: enough to see what happened, never a whole file. */
export const MAX_TOOL_OUTPUT_CHARS = 4096;

export const REDACTED_PROMPT = "[REDACTED]";

export type ToolDecision = "approved" | "approved_for_session" | "denied" | "abort";

export class TelemetryRecorder {
  private model = "";

  constructor(
    private readonly sink: TelemetrySink,
    private readonly identity: ConversationIdentity,
    private readonly logUserPrompt: boolean,
  ) {}

  /** True when records go somewhere (callers may skip building costly attributes otherwise). */
  get enabled(): boolean {
    return this.sink !== NO_SINK;
  }

  /** The model of the turn being reported; `slug` carries the same name, as the reference's turns do. */
  withModel(model: string): this {
    this.model = model;
    return this;
  }

  conversationStarts(fields: {
    providerName: string;
    reasoningEffort: string | null;
    reasoningSummary: string | null;
    contextWindow: number | null;
    autoCompactTokenLimit: number | null;
    approvalPolicy: string;
    sandboxPolicy: string;
    mcpServers: string[];
    activeProfile: string | null;
  }): void {
    this.record("codex.conversation_starts", {
      provider_name: fields.providerName,
      reasoning_effort: fields.reasoningEffort ?? undefined,
      reasoning_summary: fields.reasoningSummary ?? undefined,
      context_window: fields.contextWindow ?? undefined,
      auto_compact_token_limit: fields.autoCompactTokenLimit ?? undefined,
      approval_policy: fields.approvalPolicy,
      sandbox_policy: fields.sandboxPolicy,
      mcp_servers: fields.mcpServers.join(", "),
      active_profile: fields.activeProfile ?? undefined,
    });
    this.sink.count("codex.thread.started", {});
  }

  apiRequest(fields: { attempt: number; durationMs: number; status?: number; error?: string; cfRay?: string }): void {
    this.record("codex.api_request", {
      attempt: fields.attempt,
      duration_ms: Math.round(fields.durationMs),
      "http.response.status_code": fields.status,
      "error.message": fields.error,
      cf_ray: fields.cfRay,
    });
  }

  sseEvent(fields: {
    kind: string;
    durationMs: number;
    error?: string;
    usage?: { input: number; output: number; cached: number; reasoning: number; tool: number };
  }): void {
    const u = fields.usage;
    this.record("codex.sse_event", {
      "event.kind": fields.kind,
      duration_ms: Math.round(fields.durationMs),
      "error.message": fields.error,
      input_token_count: u?.input,
      output_token_count: u?.output,
      cached_token_count: u?.cached,
      reasoning_token_count: u?.reasoning,
      tool_token_count: u?.tool,
    });
  }

  /** The user's text inputs, concatenated; redacted unless `log_user_prompt` is set. */
  userPrompt(texts: string[]): void {
    const prompt = texts.join("");
    this.record("codex.user_prompt", {
      prompt_length: [...prompt].length,
      prompt: this.logUserPrompt ? prompt : REDACTED_PROMPT,
    });
    this.sink.count("codex.turn.started", {});
  }

  toolDecision(fields: { toolName: string; callId: string; decision: ToolDecision; source: "config" | "user" }): void {
    this.record("codex.tool_decision", {
      tool_name: fields.toolName,
      call_id: fields.callId,
      decision: fields.decision,
      source: fields.source,
    });
  }

  toolResult(fields: { toolName: string; callId: string; arguments: string; durationMs: number; success: boolean; output: string }): void {
    this.record("codex.tool_result", {
      tool_name: fields.toolName,
      call_id: fields.callId,
      arguments: fields.arguments,
      duration_ms: Math.round(fields.durationMs),
      success: fields.success ? "true" : "false",
      output: fields.output.length > MAX_TOOL_OUTPUT_CHARS ? `${fields.output.slice(0, MAX_TOOL_OUTPUT_CHARS)}…` : fields.output,
    });
  }

  private record(name: string, fields: TelemetryAttributes): void {
    if (!this.enabled) return;
    const id = this.identity;
    const attributes: Record<string, TelemetryValue> = {
      "event.name": name,
      "event.timestamp": new Date().toISOString(),
      "conversation.id": id.conversationId,
      "app.version": id.appVersion,
      "terminal.type": id.terminalType,
      model: this.model,
      slug: this.model,
    };
    if (id.authMode) attributes.auth_mode = id.authMode;
    if (id.accountId) attributes["user.account_id"] = id.accountId;
    if (id.email) attributes["user.email"] = id.email;
    for (const [key, value] of Object.entries(fields)) if (value !== undefined) attributes[key] = value;
    this.sink.emit(name, attributes);
  }
}

/** A recorder that records nothing, for sessions without telemetry (and tests). */
export function noTelemetry(): TelemetryRecorder {
  return new TelemetryRecorder(NO_SINK, { conversationId: "", appVersion: "", terminalType: "" }, false);
}
