/**
 * The rollout file format, as the reference writes it: one JSON object per line,
 * `{"timestamp", "type", "payload"}`, under `$CODEX_HOME/sessions/YYYY/MM/DD/` in a file named
 * `rollout-<local time>-<thread id>.jsonl`. Field names and shapes follow the reference's
 * `RolloutLine` / `SessionMeta` / `TurnContextItem` so that its tools (and `codex resume`) read
 * our files, and we read theirs.
 */
import { join } from "node:path";
import { UUID_PATTERN, isUuid } from "../util/ids.js";
import type { AskForApproval, ReasoningEffort, ReasoningSummary, SandboxPolicy } from "../protocol/policy.js";
import type { SubAgentSource } from "../protocol/collab.js";

export const SESSIONS_SUBDIR = "sessions";

/** The `type` of every line kind we write; reading tolerates any other. */
export type RolloutLineType = "session_meta" | "response_item" | "event_msg" | "turn_context" | "compacted";

export interface GitInfo {
  commit_hash?: string;
  branch?: string;
  repository_url?: string;
}

/**
 * First line of every file. Key order is the reference's (serde field order, `git` flattened last).
 * `session_id` names the thread's tree (its root thread's id: a user's thread's own), and
 * `thread_source` who started it. A sub-agent's also names its parent and how it was started
 * (`source` is then an object), with its nickname and role, as the reference's do.
 */
export interface SessionMetaPayload {
  session_id?: string;
  id: string;
  parent_thread_id?: string;
  /** The thread this one was forked from; absent for new threads. */
  forked_from_id?: string;
  /** Creation time, UTC, `YYYY-MM-DDTHH:MM:SS.mmmZ`. */
  timestamp: string;
  cwd: string;
  originator: string;
  cli_version: string;
  /** Who started the thread: "exec" for `codex-ts exec`, "cli" for other commands; for a sub-agent, its spawn. */
  source: string | SubAgentSource;
  thread_source?: "user" | "subagent";
  agent_nickname?: string;
  agent_role?: string;
  model_provider: string;
  /** The base instructions the thread was started with, resent unchanged when it resumes. */
  base_instructions: { text: string } | null;
  multi_agent_version?: string;
  git?: GitInfo;
}

/** Written once per user turn: what the turn ran under, so a resume can tell what changed. */
export interface TurnContextPayload {
  turn_id: string;
  cwd: string;
  approval_policy: AskForApproval;
  sandbox_policy: SandboxPolicy;
  model: string;
  effort?: ReasoningEffort;
  summary: ReasoningSummary;
  final_output_json_schema?: unknown;
}

/** UTC with milliseconds and a literal Z, as the reference stamps lines and session_meta. */
export function utcTimestamp(date = new Date()): string {
  return date.toISOString();
}

export function serializeLine(type: RolloutLineType, payload: unknown, date = new Date()): string {
  return `${JSON.stringify({ timestamp: utcTimestamp(date), type, payload })}\n`;
}

const pad = (n: number): string => String(n).padStart(2, "0");

/**
 * `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-YYYY-MM-DDThh-mm-ss-<id>.jsonl` in local time, as the
 * reference names them (dashes instead of colons so every filesystem accepts the name).
 */
export function rolloutPath(codexHome: string, threadId: string, date = new Date()): string {
  const [y, mo, d] = [String(date.getFullYear()), pad(date.getMonth() + 1), pad(date.getDate())];
  const stamp = `${y}-${mo}-${d}T${pad(date.getHours())}-${pad(date.getMinutes())}-${pad(date.getSeconds())}`;
  return join(codexHome, SESSIONS_SUBDIR, y, mo, d, `rollout-${stamp}-${threadId}.jsonl`);
}

const FILE_NAME = new RegExp(`^rollout-(\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2})-(${UUID_PATTERN})\\.jsonl$`, "i");

export function isThreadId(s: string): boolean {
  return isUuid(s);
}

/** The local start time and thread id a rollout file name carries, or null for other files. */
export function parseRolloutFileName(name: string): { stamp: string; threadId: string } | null {
  const m = FILE_NAME.exec(name);
  return m && m[1] && m[2] ? { stamp: m[1], threadId: m[2].toLowerCase() } : null;
}
