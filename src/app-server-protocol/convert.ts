/**
 * One-to-one conversions between the core's snake_case shapes (protocol/) and the app-server's
 * v2 shapes, both ways: the server speaks v2 to its clients, and the remote UI turns v2 back into
 * the core's events. Stateless; the item lifecycles live in the server (app-server/turn-items.ts)
 * and the client (app-server-client/).
 */
import type { CodexErrorInfo, FileChange, ParsedCommand, PlanItem, RateLimitSnapshot, RateLimitWindow, TokenUsage, TokenUsageInfo } from "../protocol/events.js";
import type { UserInput } from "../protocol/ops.js";
import type { AskForApproval, ExecApprovalDecision, ReasoningEffort, ReviewDecision, SandboxPolicy } from "../protocol/policy.js";
import { APPROVAL_POLICIES, REASONING_EFFORTS } from "../protocol/policy.js";
import type { WebSearchAction } from "../protocol/web-search.js";
import type {
  CommandAction,
  CommandApprovalDecision,
  FileChangeApprovalDecision,
  FileUpdateChange,
  JsonValue,
  ThreadTokenUsage,
  TokenUsageBreakdown,
  V2AskForApproval,
  V2RateLimitSnapshot,
  V2RateLimitWindow,
  V2ReasoningEffort,
  V2SandboxPolicy,
  V2UserInput,
  V2WebSearchAction,
} from "./v2.js";

// ------------------------------------------------------------------ policies

export function sandboxToV2(policy: SandboxPolicy): V2SandboxPolicy {
  switch (policy.type) {
    case "danger-full-access":
      return { type: "dangerFullAccess" };
    case "read-only":
      return { type: "readOnly", networkAccess: false };
    case "workspace-write":
      return {
        type: "workspaceWrite",
        writableRoots: policy.writable_roots,
        networkAccess: policy.network_access,
        excludeTmpdirEnvVar: policy.exclude_tmpdir_env_var,
        excludeSlashTmp: policy.exclude_slash_tmp,
      };
  }
}

export function sandboxFromV2(policy: V2SandboxPolicy): SandboxPolicy {
  switch (policy.type) {
    case "dangerFullAccess":
      return { type: "danger-full-access" };
    case "readOnly":
      return { type: "read-only" };
    case "workspaceWrite":
      return {
        type: "workspace-write",
        writable_roots: policy.writableRoots,
        network_access: policy.networkAccess,
        exclude_tmpdir_env_var: policy.excludeTmpdirEnvVar,
        exclude_slash_tmp: policy.excludeSlashTmp,
      };
  }
}

/** The policies both sides spell alike; null for one we do not run (the reference's `granular`). */
export function approvalFromV2(value: unknown): AskForApproval | null {
  return APPROVAL_POLICIES.find((p) => p === value) ?? null;
}

export function approvalToV2(policy: AskForApproval): V2AskForApproval {
  return policy;
}

export function effortFromV2(value: unknown): ReasoningEffort | null {
  return REASONING_EFFORTS.find((e) => e === value) ?? null;
}

export function effortToV2(effort: ReasoningEffort | null): V2ReasoningEffort | null {
  return effort;
}

// ------------------------------------------------------------------ input

/** The user's input as a turn takes it. */
export function inputFromV2(items: V2UserInput[]): UserInput[] {
  return items.flatMap((item): UserInput[] => {
    switch (item.type) {
      case "text":
        return [{ type: "text", text: item.text }];
      case "image":
        return [{ type: "image", image_url: item.url }];
      case "localImage":
        return [{ type: "local_image", path: item.path }];
      case "skill":
      case "mention":
        // Named in the text already (`$skill`, `@file`); the core finds them there.
        return [];
    }
  });
}

export function inputToV2(items: UserInput[]): V2UserInput[] {
  return items.map((item): V2UserInput => {
    switch (item.type) {
      case "text":
        return { type: "text", text: item.text, text_elements: [] };
      case "image":
        return { type: "image", url: item.image_url };
      case "local_image":
        return { type: "localImage", path: item.path };
    }
  });
}

// ------------------------------------------------------------------ items

/**
 * What a command does, for display. A shell script the core could not read further
 * (`bash -lc '…'` as one `unknown`) is named by the script itself, as the reference names it.
 */
export function commandActions(parsed: ParsedCommand[], argv: readonly string[] = []): CommandAction[] {
  const script = argv.length === 3 && /^-l?c$/.test(argv[1] ?? "") ? argv[2] : undefined;
  const only = parsed.length === 1 ? parsed[0] : undefined;
  if (script !== undefined && only?.type === "unknown" && only.cmd !== script) return [{ type: "unknown", command: script }];
  return parsed.map((p): CommandAction => {
    switch (p.type) {
      case "read":
        return { type: "read", command: p.cmd, name: p.name, path: p.name };
      case "list_files":
        return { type: "listFiles", command: p.cmd, path: p.path };
      case "search":
        return { type: "search", command: p.cmd, query: p.query, path: p.path };
      case "unknown":
        return { type: "unknown", command: p.cmd };
    }
  });
}

export function parsedCommands(actions: CommandAction[]): ParsedCommand[] {
  return actions.map((a): ParsedCommand => {
    switch (a.type) {
      case "read":
        return { type: "read", cmd: a.command, name: a.name };
      case "listFiles":
        return { type: "list_files", cmd: a.command, path: a.path };
      case "search":
        return { type: "search", cmd: a.command, query: a.query, path: a.path };
      case "unknown":
        return { type: "unknown", cmd: a.command };
    }
  });
}

export function fileChangesToV2(changes: Record<string, FileChange>): FileUpdateChange[] {
  return Object.entries(changes).map(([path, change]): FileUpdateChange => {
    switch (change.type) {
      case "add":
        return { path, kind: { type: "add" }, diff: change.content };
      case "delete":
        return { path, kind: { type: "delete" }, diff: change.content };
      case "update":
        return { path, kind: { type: "update", move_path: change.move_path }, diff: change.unified_diff };
    }
  });
}

export function fileChangesFromV2(changes: FileUpdateChange[]): Record<string, FileChange> {
  const out: Record<string, FileChange> = {};
  for (const c of changes) {
    out[c.path] =
      c.kind.type === "update" ? { type: "update", unified_diff: c.diff, move_path: c.kind.move_path } : { type: c.kind.type, content: c.diff };
  }
  return out;
}

export function webSearchActionToV2(action: WebSearchAction): V2WebSearchAction {
  switch (action.type) {
    case "search":
      return { type: "search", query: action.query ?? null, queries: action.queries ?? null };
    case "open_page":
      return { type: "openPage", url: action.url ?? null };
    case "find_in_page":
      return { type: "findInPage", url: action.url ?? null, pattern: action.pattern ?? null };
    case "other":
      return { type: "other" };
  }
}

export function webSearchActionFromV2(action: V2WebSearchAction | null): WebSearchAction {
  const keep = <K extends string>(key: K, v: string | null): Partial<Record<K, string>> => (v === null ? {} : ({ [key]: v } as Record<K, string>));
  switch (action?.type) {
    case "search":
      return { type: "search", ...keep("query", action.query), ...(action.queries ? { queries: action.queries } : {}) };
    case "openPage":
      return { type: "open_page", ...keep("url", action.url) };
    case "findInPage":
      return { type: "find_in_page", ...keep("url", action.url), ...keep("pattern", action.pattern) };
    default:
      return { type: "other" };
  }
}

export function planToV2(plan: PlanItem[]): Array<{ step: string; status: "pending" | "inProgress" | "completed" }> {
  return plan.map((p) => ({ step: p.step, status: p.status === "in_progress" ? "inProgress" : p.status }));
}

export function planFromV2(plan: Array<{ step: string; status: string }>): PlanItem[] {
  return plan.map((p) => ({ step: p.step, status: p.status === "inProgress" ? "in_progress" : p.status === "completed" ? "completed" : "pending" }));
}

// ------------------------------------------------------------------ decisions

export function commandDecisionFromV2(decision: CommandApprovalDecision): ExecApprovalDecision {
  if (typeof decision === "object") {
    return { approved_execpolicy_amendment: { proposed_execpolicy_amendment: decision.acceptWithExecpolicyAmendment.execpolicy_amendment } };
  }
  return reviewDecisionFromV2(decision);
}

export function reviewDecisionFromV2(decision: FileChangeApprovalDecision): ReviewDecision {
  switch (decision) {
    case "accept":
      return "approved";
    case "acceptForSession":
      return "approved_for_session";
    case "decline":
      return "denied";
    case "cancel":
      return "abort";
  }
}

export function commandDecisionToV2(decision: ExecApprovalDecision): CommandApprovalDecision {
  if (typeof decision === "object") return { acceptWithExecpolicyAmendment: { execpolicy_amendment: decision.approved_execpolicy_amendment.proposed_execpolicy_amendment } };
  return reviewDecisionToV2(decision);
}

export function reviewDecisionToV2(decision: ReviewDecision): FileChangeApprovalDecision {
  switch (decision) {
    case "approved":
      return "accept";
    case "approved_for_session":
      return "acceptForSession";
    case "denied":
      return "decline";
    case "abort":
      return "cancel";
  }
}

// ------------------------------------------------------------------ usage and errors

function breakdown(u: TokenUsage): TokenUsageBreakdown {
  return {
    totalTokens: u.total_tokens,
    inputTokens: u.input_tokens,
    cachedInputTokens: u.cached_input_tokens,
    cacheWriteInputTokens: 0,
    outputTokens: u.output_tokens,
    reasoningOutputTokens: u.reasoning_output_tokens,
  };
}

function usageFromBreakdown(b: TokenUsageBreakdown): TokenUsage {
  return {
    input_tokens: b.inputTokens,
    cached_input_tokens: b.cachedInputTokens,
    output_tokens: b.outputTokens,
    reasoning_output_tokens: b.reasoningOutputTokens,
    total_tokens: b.totalTokens,
  };
}

export function tokenUsageToV2(info: TokenUsageInfo): ThreadTokenUsage {
  return { total: breakdown(info.total_token_usage), last: breakdown(info.last_token_usage), modelContextWindow: info.model_context_window };
}

export function tokenUsageFromV2(usage: ThreadTokenUsage): TokenUsageInfo {
  return { total_token_usage: usageFromBreakdown(usage.total), last_token_usage: usageFromBreakdown(usage.last), model_context_window: usage.modelContextWindow };
}

const windowToV2 = (w: RateLimitWindow | null): V2RateLimitWindow | null =>
  w && { usedPercent: w.used_percent, windowDurationMins: w.window_minutes, resetsAt: w.resets_at };
const windowFromV2 = (w: V2RateLimitWindow | null): RateLimitWindow | null =>
  w && { used_percent: w.usedPercent, window_minutes: w.windowDurationMins, resets_at: w.resetsAt };

/** The account's limits; with nothing reported yet, the reference's empty `codex` snapshot. */
export function rateLimitsToV2(limits: RateLimitSnapshot | null): V2RateLimitSnapshot {
  return {
    limitId: limits?.limit_id ?? "codex",
    limitName: limits?.limit_name ?? null,
    normalModelSlug: null,
    primary: windowToV2(limits?.primary ?? null),
    secondary: windowToV2(limits?.secondary ?? null),
    credits: limits?.credits ? { hasCredits: limits.credits.has_credits, unlimited: limits.credits.unlimited, balance: limits.credits.balance } : null,
    individualLimit: null,
    spendControlReached: null,
    planType: limits?.plan_type ?? null,
    rateLimitReachedType: null,
  };
}

export function rateLimitsFromV2(limits: V2RateLimitSnapshot): RateLimitSnapshot {
  return {
    limit_id: limits.limitId,
    limit_name: limits.limitName,
    primary: windowFromV2(limits.primary),
    secondary: windowFromV2(limits.secondary),
    credits: limits.credits ? { has_credits: limits.credits.hasCredits, unlimited: limits.credits.unlimited, balance: limits.credits.balance } : null,
    plan_type: limits.planType,
  };
}

const camel = (s: string): string => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** The reference's camelCase error categories, with `httpStatusCode` where a status is known. */
export function errorInfoToV2(info: CodexErrorInfo | null): JsonValue | null {
  if (info === null) return null;
  if (typeof info === "string") return camel(info);
  const [kind, body] = Object.entries(info)[0] as [string, { http_status_code: number | null }];
  return { [camel(kind)]: { httpStatusCode: body.http_status_code } };
}

export function errorInfoFromV2(info: unknown): CodexErrorInfo | null {
  const snake = (s: string): string => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  if (typeof info === "string") {
    const known = ["context_window_exceeded", "usage_limit_exceeded", "unauthorized", "bad_request", "internal_server_error", "sandbox_error", "thread_rollback_failed"];
    const s = snake(info);
    return (known.includes(s) ? s : "other") as CodexErrorInfo;
  }
  if (typeof info === "object" && info !== null) {
    const entry = Object.entries(info)[0];
    if (!entry) return null;
    const [kind, body] = entry as [string, { httpStatusCode?: number | null }];
    const status = body?.httpStatusCode ?? null;
    if (kind === "responseStreamDisconnected") return { response_stream_disconnected: { http_status_code: status } };
    if (kind === "httpConnectionFailed") return { http_connection_failed: { http_status_code: status } };
    return "other";
  }
  return null;
}
