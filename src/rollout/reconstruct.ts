/**
 * Loads a recorded thread for resuming, in one pass over its lines: replays them into the
 * history the model saw and, beside it, the events a front end redraws the conversation from
 * (see initial-messages.ts), and picks out what the session needs to carry on (thread id, base
 * instructions, the last turn's settings, the last token totals). Replay follows the reference:
 * response items append, `compacted` replaces the history, `thread_rolled_back` drops the last
 * user turns; every other line (events, unknown kinds such as the reference's `world_state`)
 * only informs. Lines are parsed only when something needs them: a run that draws nothing
 * (`redraw: false`) reads the events' kinds from their first characters and skips them.
 */
import { basename } from "node:path";
import type { EventMsg, TokenUsage, TokenUsageInfo } from "../protocol/events.js";
import { InitialMessages, isRedrawnEvent } from "./initial-messages.js";
import { userText, type ResponseItem, type ToolCallItem } from "../protocol/items.js";
import { APPROVAL_POLICIES, SANDBOX_MODES, sandboxPolicyFor, type AskForApproval, type SandboxMode, type SandboxPolicy } from "../protocol/policy.js";
import { parseRolloutFileName } from "./format.js";
import { scanRollout, type RolloutLine } from "./read.js";
import { responseItemFromRollout } from "./response-items.js";
import { pairToolCalls } from "./tool-pairs.js";
import { SubAgentLedger, isLedgerEvent, type RecordedSubAgent } from "./sub-agent-ledger.js";
import { GOAL_STATUSES, type GoalStatus, type ThreadGoal } from "../protocol/goals.js";

/** The settings a recorded turn ran under, as far as our sessions can compare them. */
export interface RecordedTurnSettings {
  cwd: string;
  approvalPolicy: AskForApproval;
  sandboxPolicy: SandboxPolicy;
}

export interface RecordedThread {
  threadId: string;
  path: string;
  /** Base instructions from session_meta, resent so a resumed request starts like the old ones. */
  baseInstructions: string | null;
  /** The history to resend, oldest first, orphan tool outputs left out. */
  history: ResponseItem[];
  /** Recorded calls that never got an output (the writer died while they ran). */
  unanswered: ToolCallItem[];
  /** The model of the last recorded turn, for the "recorded with model …" warning. */
  lastModel: string | null;
  /**
   * The settings of the last recorded turn. Null when there is none we can read, or when a
   * compaction dropped the context items: the session then starts with a full initial context.
   */
  lastTurn: RecordedTurnSettings | null;
  /** The last token_count's totals, so usage keeps adding up across resumes. */
  tokenInfo: TokenUsageInfo | null;
  /** Problems that did not stop loading (torn last line, items we cannot resend). */
  warnings: string[];
  /** What a front end draws the conversation so far from (session_configured's initial_messages). */
  initialMessages: EventMsg[];
  /** The sub-agents the thread started, with their last recorded status. */
  subAgents: RecordedSubAgent[];
  /** The thread's goal as the last thread_goal_updated left it (null: none, or cleared). */
  goal: ThreadGoal | null;
  /** Undo's history (codex-ts's ghost snapshots and undos), for the session to replay when undo is used. */
  undo: RecordedUndo;
}

/**
 * What undo recorded, in order: ghost snapshot lines (kept as text: they are parsed only if
 * the user undoes something) and undo_completed events; and the turn of each message the user
 * sent (null where the file does not say), which a rollback of files counts back through.
 */
export interface RecordedUndo {
  log: Array<{ kind: "snapshot"; raw: string } | { kind: "completed"; event: unknown }>;
  userTurns: Array<string | null>;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

/** Our own wording for the summary a compaction left behind (the reference's prose is not copied). */
export const COMPACTION_SUMMARY_PREFIX =
  "Earlier parts of this conversation were summarised to save space. The summary below was written by a previous model working on the same task; continue from it without redoing finished work.\n\n";

interface ReplayState {
  threadId: string | null;
  baseInstructions: string | null;
  history: ResponseItem[];
  /**
   * Only the last turn_context and the last token counts matter, so their lines are kept as
   * text and parsed once at the end instead of each time (long sessions have thousands).
   */
  lastTurnContext: string | null;
  /** A local compaction after the last turn_context dropped the context items. */
  contextDropped: boolean;
  /** The newest token_count line that has figures (`info` not null). */
  lastTokenCount: string | null;
  /** The newest thread_goal_updated line. */
  lastGoal: string | null;
  /** Recorded item kinds we cannot resend, with counts. */
  dropped: Map<string, number>;
  lines: number;
  /** null: nobody redraws this thread (exec). */
  messages: InitialMessages | null;
  subAgents: SubAgentLedger;
  undo: RecordedUndo;
  /** The turn the last turn_context line named. */
  turnId: string | null;
}

export interface LoadOptions {
  /** Build `initialMessages` (default true); a front end that draws no conversation passes false. */
  redraw?: boolean;
}

export function loadThread(path: string, options: LoadOptions = {}): RecordedThread {
  const state: ReplayState = {
    threadId: null,
    baseInstructions: null,
    history: [],
    lastTurnContext: null,
    contextDropped: false,
    lastTokenCount: null,
    lastGoal: null,
    dropped: new Map(),
    lines: 0,
    messages: options.redraw === false ? null : new InitialMessages(),
    subAgents: new SubAgentLedger(),
    undo: { log: [], userTurns: [] },
    turnId: null,
  };
  const scan = scanRollout(path, (line) => replay(state, line));
  if (state.lines === 0 && scan.warnings.length === 0) throw new Error(`${path}: empty session file`);
  const threadId = state.threadId ?? parseRolloutFileName(basename(path))?.threadId;
  if (!threadId) throw new Error(`${path}: no session_meta line; this is not a session file`);

  const warnings = [...scan.warnings];
  const ignored = [...state.dropped].filter(([kind]) => kind !== "ghost_snapshot");
  if (ignored.length > 0) {
    const list = ignored.map(([kind, n]) => `${kind} ×${n}`).join(", ");
    warnings.push(`${path}: left out recorded items the model cannot be sent again: ${list}`);
  }
  const paired = pairToolCalls(state.history);
  const turn = parsePayload(state.lastTurnContext);
  return {
    threadId,
    path,
    baseInstructions: state.baseInstructions,
    history: paired.history,
    unanswered: paired.unanswered,
    lastModel: turn ? (str(turn.model) ?? null) : null,
    lastTurn: turn && !state.contextDropped ? turnSettings(turn) : null,
    tokenInfo: tokenInfo(parsePayload(state.lastTokenCount)),
    warnings,
    initialMessages: state.messages?.finish() ?? [],
    subAgents: state.subAgents.list(),
    goal: goalOf(parsePayload(state.lastGoal)),
    undo: state.undo,
  };
}

/** The goal a thread_goal_updated payload carries, when it has the fields a goal needs. */
function goalOf(payload: Json | null): ThreadGoal | null {
  const g = payload?.goal;
  if (!isObject(g) || typeof g.objective !== "string" || !GOAL_STATUSES.includes(g.status as GoalStatus)) return null;
  const n = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);
  return {
    threadId: str(g.threadId) ?? "",
    objective: g.objective,
    status: g.status as GoalStatus,
    tokenBudget: typeof g.tokenBudget === "number" ? g.tokenBudget : null,
    tokensUsed: n(g.tokensUsed),
    timeUsedSeconds: n(g.timeUsedSeconds),
    createdAt: n(g.createdAt),
    updatedAt: n(g.updatedAt),
  };
}

function parsePayload(raw: string | null): Json | null {
  if (raw === null) return null;
  try {
    const line = JSON.parse(raw) as { payload?: unknown };
    return isObject(line.payload) ? line.payload : null;
  } catch {
    return null;
  }
}

function tokenInfo(payload: Json | null): TokenUsageInfo | null {
  return payload && isObject(payload.info) ? usageInfo(payload.info) : null;
}

const NO_INFO = /"info"\s*:\s*null/;
const TURN_ID = /"turn_id"\s*:\s*"([^"]+)"/;

function replay(state: ReplayState, line: RolloutLine): void {
  state.lines += 1;
  switch (line.type) {
    case "turn_context":
      state.lastTurnContext = line.raw;
      state.contextDropped = false;
      state.turnId = TURN_ID.exec(line.raw)?.[1] ?? null;
      return;
    case "event_msg": {
      // Most events only inform; decide from the line's head before paying for a parse.
      const kind = line.payloadType ?? (isObject(line.payload) ? str(line.payload.type) : undefined);
      // The reference also writes token counts without figures (rate limits only): not those.
      if (kind === "token_count") {
        const withFigures = !NO_INFO.test(line.raw);
        if (withFigures) state.lastTokenCount = line.raw;
        state.messages?.addTokenCount(line.raw, withFigures);
      } else if (kind === "thread_goal_updated") state.lastGoal = line.raw;
      else if (kind === "thread_rolled_back" && isObject(line.payload)) {
        const turns = num(line.payload.num_turns);
        state.history = dropLastUserTurns(state.history, turns);
        state.messages?.rollback(turns);
        state.undo.userTurns.splice(Math.max(0, state.undo.userTurns.length - turns));
      } else if (kind === "undo_completed") {
        state.undo.log.push({ kind: "completed", event: line.payload });
        state.messages?.addEvent(line.payload);
      } else if (state.messages && isRedrawnEvent(kind)) state.messages.addEvent(line.payload);
      // The ends of collab calls are redrawn too, and tell which sub-agents the thread has.
      if (isLedgerEvent(kind)) state.subAgents.add(isObject(line.payload) ? line.payload : parsePayload(line.raw));
      return;
    }
    case "response_item":
      // Undo's snapshots are kept as text, unparsed: a resume that never undoes pays nothing more.
      if (line.payloadType === "ghost_snapshot") {
        state.undo.log.push({ kind: "snapshot", raw: line.raw });
        return;
      }
      break;
    default:
      break;
  }
  const p = line.payload;
  if (p === undefined) return; // not JSON after all: the reader has warned
  switch (line.type) {
    case "session_meta":
      // The first one names the thread; later ones (a parent's, copied by some writers) do not.
      if (state.threadId === null && isObject(p) && str(p.id)) {
        state.threadId = str(p.id) ?? null;
        const base = p.base_instructions;
        state.baseInstructions = isObject(base) ? (str(base.text) ?? null) : (str(base) ?? null);
      }
      break;
    case "response_item": {
      const item = responseItemFromRollout(p);
      if (item) {
        state.history.push(item);
        state.messages?.addItem(item);
        if (isRealUserMessage(item)) state.undo.userTurns.push(state.turnId);
      } else {
        const kind = isObject(p) ? (str(p.type) ?? "?") : "?";
        state.dropped.set(kind, (state.dropped.get(kind) ?? 0) + 1);
      }
      break;
    }
    case "compacted":
      if (!isObject(p)) break;
      if (Array.isArray(p.replacement_history)) {
        state.history = p.replacement_history.map(responseItemFromRollout).filter((i): i is ResponseItem => i !== null);
      } else {
        // A local compaction keeps the user's messages and the summary; the context items are
        // gone, so the resumed session must send a full initial context again.
        state.history = [...state.history.filter(isRealUserMessage), userText(COMPACTION_SUMMARY_PREFIX + (str(p.message) ?? ""))];
        state.contextDropped = true;
      }
      break;
    default:
      break; // other writers' line kinds (world_state, token_usage_record, …)
  }
}

function turnSettings(p: Json): RecordedTurnSettings | null {
  const cwd = str(p.cwd);
  const approval = APPROVAL_POLICIES.find((a) => a === p.approval_policy);
  const sandbox = sandboxPolicy(p.sandbox_policy);
  return cwd && approval && sandbox ? { cwd, approvalPolicy: approval, sandboxPolicy: sandbox } : null;
}

/** Lenient about fields newer writers leave out (the reference 0.169 omits empty writable_roots). */
function sandboxPolicy(v: unknown): SandboxPolicy | null {
  if (!isObject(v) || !SANDBOX_MODES.includes(v.type as SandboxMode)) return null;
  const policy = sandboxPolicyFor(
    v.type as SandboxMode,
    Array.isArray(v.writable_roots) ? v.writable_roots.filter((r): r is string => typeof r === "string") : [],
  );
  if (policy.type === "workspace-write") {
    policy.network_access = v.network_access === true;
    policy.exclude_tmpdir_env_var = v.exclude_tmpdir_env_var === true;
    policy.exclude_slash_tmp = v.exclude_slash_tmp === true;
  }
  return policy;
}

function usage(v: unknown): TokenUsage {
  const u = isObject(v) ? v : {};
  return {
    input_tokens: num(u.input_tokens),
    cached_input_tokens: num(u.cached_input_tokens),
    output_tokens: num(u.output_tokens),
    reasoning_output_tokens: num(u.reasoning_output_tokens),
    total_tokens: num(u.total_tokens),
  };
}

function usageInfo(info: Json): TokenUsageInfo {
  return {
    total_token_usage: usage(info.total_token_usage),
    last_token_usage: usage(info.last_token_usage),
    model_context_window: typeof info.model_context_window === "number" ? info.model_context_window : null,
  };
}

/** Context the harness puts in user messages (environment, AGENTS.md, markers), not typed by a person. */
/**
 * What the harness itself puts in user messages (ours and the reference's). Only these: a user
 * who starts a message with a tag of their own (`<div> looks wrong`) still typed a message, and a
 * rollback counts it as the front end showed it.
 */
const CONTEXT_PREFIXES = [
  "<environment_context>",
  "<user_instructions>",
  "# AGENTS.md instructions",
  "<turn_aborted>",
  "<user_shell_command>",
  "<skill>",
  "<working_state>",
  "<user_action>",
  "<subagent_notification>",
];

export function isContextText(text: string): boolean {
  const t = text.trimStart();
  return CONTEXT_PREFIXES.some((p) => t.startsWith(p));
}

/** A message the user typed: not harness context, not a compaction's summary. */
export function isRealUserMessage(item: ResponseItem): boolean {
  if (item.type !== "message" || item.role !== "user") return false;
  const first = item.content.find((c) => c.type === "input_text");
  return first === undefined || (!isContextText(first.text) && !first.text.startsWith(COMPACTION_SUMMARY_PREFIX));
}

/**
 * History without its last `turns` user turns (each starts at a message the user typed); more
 * turns than there are leaves what came before the first one (the initial context).
 */
export function dropLastUserTurns(history: ResponseItem[], turns: number): ResponseItem[] {
  if (turns <= 0) return history;
  const starts = history.flatMap((item, i) => (isRealUserMessage(item) ? [i] : []));
  if (starts.length === 0) return history;
  const cut = starts[Math.max(0, starts.length - turns)] ?? history.length;
  return history.slice(0, cut);
}
