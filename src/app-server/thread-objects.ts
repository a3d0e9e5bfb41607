/**
 * `Thread` objects, the protocol's view of a thread: from a recorded thread's head (listings,
 * reads of threads not loaded) or from a loaded one, and its turns from the recorded events
 * replayed through the same item mapper live clients get their notifications from.
 */
import type { JsonValue, Thread, ThreadStatus, Turn, TurnError } from "../app-server-protocol/v2.js";
import { errorInfoToV2 } from "../app-server-protocol/convert.js";
import type { ThreadSummary } from "../protocol/threads.js";
import type { EventMsg } from "../protocol/events.js";
import { packageVersion } from "../util/version.js";
import { TurnItems } from "./turn-items.js";

const seconds = (iso: string | null, fallback: number): number => {
  const ms = iso === null ? NaN : Date.parse(iso);
  return Number.isNaN(ms) ? fallback : Math.floor(ms / 1000);
};

/** session_meta's `source` as the protocol's SessionSource (our `mcp` is a custom one to it; a sub-agent's is `subAgent`). */
export function sessionSource(source: string | null): JsonValue {
  if (source === null) return "unknown";
  if (["cli", "vscode", "exec", "appServer"].includes(source)) return source;
  if (source.startsWith("{")) {
    const sub = subAgentSource(source);
    if (sub !== undefined) return { subAgent: sub };
    try {
      return JSON.parse(source) as JsonValue;
    } catch {
      return "unknown";
    }
  }
  return { custom: source };
}

/** What a sub-agent's recorded source (`{"subagent": …}`) says of it: `"review"`, `{"thread_spawn": …}`, …; undefined for other threads. */
function subAgentSource(source: string | null): JsonValue | undefined {
  if (source === null || !source.startsWith("{")) return undefined;
  try {
    const parsed = JSON.parse(source) as JsonValue;
    return isObject(parsed) ? parsed.subagent : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The source kinds `thread/list`'s `sourceKinds` filter matches a thread by: a sub-agent's
 * thread matches `subAgent` and the kind of sub-agent it is (`subAgentThreadSpawn` for one a
 * thread spawned with spawn_agent).
 */
export function sourceKinds(source: string | null): string[] {
  if (source === null) return ["unknown"];
  if (["cli", "vscode", "exec", "appServer"].includes(source)) return [source];
  const sub = subAgentSource(source);
  if (sub !== undefined) {
    const kind = typeof sub === "string" ? sub : isObject(sub) ? Object.keys(sub)[0] : undefined;
    return ["subAgent", SUB_AGENT_KINDS[kind ?? ""] ?? "subAgentOther"];
  }
  return ["unknown"];
}

const SUB_AGENT_KINDS: Record<string, string> = { thread_spawn: "subAgentThreadSpawn", review: "subAgentReview", compact: "subAgentCompact" };

/** Whether a thread of this source is a sub-agent's (listings leave those out unless asked). */
export function isSubAgentKind(kind: string): boolean {
  return kind.startsWith("subAgent");
}

/** A spawned sub-agent's nickname and role, as its session_meta source names them (nulls for other threads). */
function spawnedAgent(source: string | null): { agentNickname: string | null; agentRole: string | null } {
  const sub = subAgentSource(source);
  const spawn = isObject(sub) ? sub.thread_spawn : null;
  if (!isObject(spawn)) return { agentNickname: null, agentRole: null };
  return { agentNickname: typeof spawn.agent_nickname === "string" ? spawn.agent_nickname : null, agentRole: typeof spawn.agent_role === "string" ? spawn.agent_role : null };
}

function isObject(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function threadFromSummary(summary: ThreadSummary, status: ThreadStatus): Thread {
  const updatedAt = seconds(summary.updatedAt, 0);
  const createdAt = seconds(summary.createdAt, updatedAt);
  return {
    id: summary.id,
    sessionId: summary.sessionId ?? summary.id,
    forkedFromId: summary.forkedFromId,
    parentThreadId: summary.parentThreadId,
    preview: summary.firstPrompt ?? "",
    ephemeral: false,
    section: null,
    sectionEnteredAt: null,
    projectId: null,
    historyMode: "legacy",
    modelProvider: summary.modelProvider ?? "openai",
    model: summary.model,
    reasoningEffort: null,
    createdAt,
    updatedAt,
    recencyAt: createdAt,
    status,
    path: summary.path,
    cwd: summary.cwd ?? "",
    cliVersion: summary.cliVersion ?? packageVersion(),
    originator: summary.originator,
    source: sessionSource(summary.source),
    threadSource: null,
    ...spawnedAgent(summary.source),
    gitInfo: summary.gitBranch === null ? null : { sha: null, branch: summary.gitBranch, originUrl: null },
    name: summary.name,
    turns: [],
  };
}

/**
 * The recorded turns, oldest first. A turn with no recorded end is in progress when
 * `liveTurnId` names it, and was cut short (interrupted) otherwise.
 */
export function turnsFromEvents(threadId: string, events: EventMsg[], liveTurnId: string | null): Turn[] {
  const replay = new TurnReplay(threadId);
  for (const msg of events) replay.add(msg);
  return replay.finish(liveTurnId);
}

/** The recorded events carry no times: items and turns read back have none, a turn's duration when its end recorded one. */
class TurnReplay {
  readonly turns: Turn[] = [];
  private turn: Turn | null = null;
  private items: TurnItems | null = null;
  private error: TurnError | null = null;

  constructor(private readonly threadId: string) {}

  add(msg: EventMsg): void {
    switch (msg.type) {
      case "task_started":
        this.close("interrupted", null);
        this.open(msg.turn_id);
        return;
      case "task_complete":
        this.close(this.error ? "failed" : "completed", msg.duration_ms ?? null);
        return;
      case "turn_aborted":
        this.close("interrupted", msg.duration_ms ?? null);
        return;
      case "error":
        this.error = { message: msg.message, codexErrorInfo: errorInfoToV2(msg.codex_error_info), additionalDetails: null };
        return;
      default:
        // Events before any recorded boundary (older writers) open a turn of their own.
        if (!this.items && msg.type === "user_message") this.open(`${this.threadId}-turn-${this.turns.length + 1}`);
        this.items?.map(msg);
    }
  }

  finish(liveTurnId: string | null): Turn[] {
    if (this.turn && this.items && this.turn.id === liveTurnId) {
      this.turn.items = this.items.items;
      this.turns.push(this.turn);
    } else {
      this.close("interrupted", null);
    }
    return this.turns;
  }

  private open(turnId: string): void {
    this.turn = { id: turnId, rootTurnId: turnId, items: [], itemsView: "full", status: "inProgress", error: null, startedAt: null, completedAt: null, durationMs: null };
    this.items = new TurnItems(this.threadId, turnId, () => null);
    this.error = null;
  }

  private close(status: Turn["status"], durationMs: number | null): void {
    const { turn, items } = this;
    if (!turn || !items) return;
    items.closeAll();
    turn.items = items.items;
    turn.status = status;
    turn.error = status === "failed" ? this.error : null;
    turn.durationMs = durationMs;
    this.turns.push(turn);
    this.turn = null;
    this.items = null;
  }
}
