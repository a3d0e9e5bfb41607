/**
 * Thread methods: start, resume (a loaded thread is rejoined, a recorded one loaded from its
 * file, whoever wrote it), fork, list, read, archive / unarchive, name, unsubscribe, the loaded
 * list, and the history changes (rollback, revert, compact; undo and redo in ./undo.ts).
 */
import { invalidRequest } from "../../app-server-protocol/jsonrpc.js";
import type { FilesRestored, Thread, ThreadSettingsResponse, Turn } from "../../app-server-protocol/v2.js";
import { approvalFromV2, effortFromV2 } from "../../app-server-protocol/convert.js";
import type { CliConfigInput } from "../../config/load-config.js";
import { tomlKey, tomlValue } from "../../util/toml-text.js";
import { SANDBOX_MODES } from "../../protocol/policy.js";
import type { TurnOverrides } from "../../protocol/ops.js";
import { archiveRecordedThread, findRecordedThread, isThreadId, nameThread, recordedThreadSummary, unarchiveRecordedThread } from "../../host/recorded-threads.js";
import { Reply } from "../connection.js";
import type { LiveThread } from "../live-thread.js";
import type { Params } from "../params.js";
import type { AppServer, Method, MethodContext } from "../server.js";
import { threadFromSummary } from "../thread-objects.js";
import { recordedTurns, turnsOfThread } from "../thread-turns.js";
import { listThreads } from "./thread-list.js";
import { CONVERSATION_ONLY, rollbackChoice, rollbackWithFiles, undoMethods, type RollbackChoice } from "./undo.js";

/** The settings a start, resume or fork request may give, as the config loader's input. */
function configInput(params: Params): Partial<CliConfigInput> {
  const overrides: string[] = [];
  const config = params.optionalObject("config") ?? {};
  for (const [key, value] of Object.entries(config)) {
    const text = tomlValue(value);
    if (text === null) throw invalidRequest(`Invalid request: config value for \`${key}\` cannot be written as TOML`);
    overrides.push(`${key.split(".").map(tomlKey).join(".")}=${text}`);
  }
  const provider = params.optionalString("modelProvider");
  if (provider !== undefined) overrides.push(`model_provider=${tomlValue(provider)}`);
  const approval = params.raw("approvalPolicy");
  const approvalPolicy = approval === undefined || approval === null ? undefined : approvalFromV2(approval);
  if (approvalPolicy === null) throw invalidRequest(`Invalid request: approvalPolicy ${JSON.stringify(approval)} is not supported (use untrusted, on-failure, on-request or never)`);
  return {
    ...(params.optionalString("cwd") !== undefined ? { cwd: params.optionalString("cwd") } : {}),
    overrides,
    model: params.optionalString("model"),
    sandboxMode: params.optionalEnum("sandbox", SANDBOX_MODES),
    approvalPolicy,
  };
}

/** What a resume or fork changes about a recorded thread's settings, as the core's turn overrides. */
function resumeOverrides(params: Params): TurnOverrides {
  const input = configInput(params);
  const overrides: TurnOverrides = {};
  if (input.cwd !== undefined) overrides.cwd = input.cwd;
  if (input.model !== undefined) overrides.model = input.model;
  if (input.approvalPolicy !== undefined) overrides.approval_policy = input.approvalPolicy;
  if (input.sandboxMode !== undefined) {
    overrides.sandbox_policy = input.sandboxMode === "workspace-write" ? { type: "workspace-write", writable_roots: [], network_access: false, exclude_tmpdir_env_var: false, exclude_slash_tmp: false } : { type: input.sandboxMode };
  }
  const effort = effortFromV2(params.raw("effort"));
  if (effort !== null) overrides.effort = effort;
  return overrides;
}

function settingsReply(server: AppServer, live: LiveThread, thread: Thread): ThreadSettingsResponse {
  return { thread, ...live.settingsResponse() };
}

/** A loaded thread with its turns so far (the recorded ones, and the one in progress). */
function withTurns(server: AppServer, live: LiveThread): Thread {
  const thread = server.threadObject(live);
  thread.turns = recordedTurns(live.threadId, thread.path, live.activeTurnId);
  return thread;
}

const start: Method = async ({ server, connection }, params) => {
  const config = server.loadConfig(configInput(params));
  const host = server.host();
  host.checkCredentials(config);
  const ephemeral = params.optionalBoolean("ephemeral") === true;
  const hosted = await host.open({
    config,
    ephemeral,
    developerInstructions: params.optionalString("developerInstructions"),
    baseInstructions: params.optionalString("baseInstructions"),
  });
  const live = await server.adopt(hosted, { ephemeral });
  await host.ready(hosted);
  live.subscribe(connection);
  const thread = server.threadObject(live);
  return new Reply(settingsReply(server, live, thread), () => server.broadcast("thread/started", { thread }));
};

const resume: Method = async ({ server, connection }, params) => {
  const threadId = params.string("threadId");
  let live = server.thread(threadId);
  if (!live) {
    const hosted = await server.host().resume(threadId, params.optionalString("cwd") ?? process.cwd(), server.options.overrides);
    if (!hosted) throw invalidRequest(`thread not found: ${threadId}`);
    const summary = recordedThreadSummary(server.codexHome, threadId);
    live = await server.adopt(hosted, {
      createdAt: summary?.createdAt ? Math.floor(Date.parse(summary.createdAt) / 1000) : undefined,
      forkedFromId: summary?.forkedFromId ?? null,
      preview: summary?.firstPrompt ?? "",
    });
  }
  const overrides = resumeOverrides(params);
  if (Object.keys(overrides).length > 0) await live.request({ type: "override_turn_context", ...overrides }, (msg) => (msg.type === "settings_changed" ? msg : undefined));
  // The thread's running sub-agents come with it, as they did when they started.
  const joined = [live, ...server.subAgentsOf(threadId)];
  for (const thread of joined) thread.subscribe(connection);
  const thread = params.optionalBoolean("excludeTurns") === true ? server.threadObject(live) : withTurns(server, live);
  const reply = { ...settingsReply(server, live, thread), collaborationMode: null, turnsBackwardsCursor: null, itemsBackwardsCursor: null };
  // Questions the threads asked while this client was away are asked again once it has the thread.
  return new Reply(reply, () => {
    for (const thread of joined) thread.askOpenQuestions(connection);
  });
};

const fork: Method = async ({ server, connection }, params) => {
  const sourceId = params.string("threadId");
  const summary = recordedThreadSummary(server.codexHome, sourceId);
  if (!summary) throw invalidRequest(`thread not found: ${sourceId}`);
  const input = configInput(params);
  const config = server.loadConfig({ ...input, cwd: input.cwd ?? summary.cwd ?? process.cwd() });
  const host = server.host();
  host.checkCredentials(config);
  const ephemeral = params.optionalBoolean("ephemeral") === true;
  const hosted = await host.open({ config, ephemeral, target: { kind: "fork", sessionId: sourceId, last: false, all: false } });
  const live = await server.adopt(hosted, { forkedFromId: sourceId, ephemeral, preview: summary.firstPrompt ?? "" });
  await host.ready(hosted);
  live.subscribe(connection);
  const thread = params.optionalBoolean("excludeTurns") === true ? server.threadObject(live) : withTurns(server, live);
  return new Reply(settingsReply(server, live, thread), () => server.broadcast("thread/started", { thread: { ...thread, turns: [] } }));
};

const read: Method = async ({ server }, params) => {
  const threadId = params.string("threadId");
  const includeTurns = params.optionalBoolean("includeTurns") === true;
  const live = server.thread(threadId);
  if (live) return { thread: includeTurns ? withTurns(server, live) : server.threadObject(live) };
  const summary = recordedThreadSummary(server.codexHome, threadId) ?? recordedThreadSummary(server.codexHome, threadId, true);
  if (!summary) throw invalidRequest(`thread not found: ${threadId}`);
  const thread = threadFromSummary(summary, { type: "notLoaded" });
  if (includeTurns) thread.turns = recordedTurns(thread.id, summary.path, null);
  return { thread };
};

/** A thread's turns by page (newest first unless ascending), for clients that hydrate a thread in pages. */
const listTurns: Method = async ({ server }, params) => {
  const turns = turnsOfThread(server, params.string("threadId"));
  const ascending = params.optionalEnum("sortDirection", ["asc", "desc"] as const) === "asc";
  const view = params.optionalEnum("itemsView", ["notLoaded", "summary", "full"] as const) ?? "summary";
  const ordered = ascending ? turns : [...turns].reverse();
  const cursor = params.optionalString("cursor");
  const offset = cursor === undefined ? 0 : Number(/^o:(\d+)$/.exec(cursor)?.[1] ?? NaN);
  if (Number.isNaN(offset)) throw invalidRequest(`Invalid request: unknown cursor ${JSON.stringify(cursor)}`);
  const limit = params.optionalInteger("limit", 1) ?? 25;
  const page = ordered.slice(offset, offset + limit).map((turn): Turn => {
    if (view === "full") return turn;
    const last = [...turn.items].reverse().find((i) => i.type === "agentMessage");
    return { ...turn, itemsView: view, items: view === "summary" && last ? [last] : [] };
  });
  return { data: page, nextCursor: offset + limit < ordered.length ? `o:${offset + limit}` : null, backwardsCursor: page.length > 0 ? `o:${offset}` : null };
};

/** A thread by id (not by name: the protocol names threads by id), active or archived. */
function recordedById(server: AppServer, threadId: string, where: "active" | "archived"): ReturnType<typeof findRecordedThread> {
  return isThreadId(threadId) ? findRecordedThread(server.codexHome, threadId, where) : null;
}

const archive: Method = async ({ server }, params) => {
  const threadId = params.string("threadId");
  if (server.thread(threadId)?.activeTurnId) throw invalidRequest(`thread ${threadId} has a turn in progress; interrupt it before archiving`);
  const found = recordedById(server, threadId, "active");
  if (!found) throw invalidRequest(`thread not found: ${threadId}`);
  await server.closeThread(threadId);
  archiveRecordedThread(server.codexHome, found);
  server.broadcast("thread/archived", { threadId });
  return {};
};

const unarchive: Method = async ({ server }, params) => {
  const threadId = params.string("threadId");
  const found = recordedById(server, threadId, "archived");
  if (!found) throw invalidRequest(`no archived thread ${threadId}`);
  unarchiveRecordedThread(server.codexHome, found);
  const summary = recordedThreadSummary(server.codexHome, threadId);
  if (!summary) throw invalidRequest(`thread not found: ${threadId}`);
  server.broadcast("thread/unarchived", { threadId });
  return { thread: threadFromSummary(summary, { type: "notLoaded" }) };
};

const setName: Method = async ({ server }, params) => {
  const threadId = params.string("threadId");
  const name = params.string("name");
  if (!server.thread(threadId) && !recordedThreadSummary(server.codexHome, threadId)) throw invalidRequest(`thread not found: ${threadId}`);
  const named = nameThread(server.codexHome, threadId, name);
  if (typeof named === "string") throw invalidRequest(`Invalid request: ${named}`);
  server.broadcast("thread/name/updated", { threadId, threadName: named.name });
  return {};
};

const unsubscribe: Method = async ({ server, connection }, params) => {
  const threadId = params.string("threadId");
  const live = server.thread(threadId);
  if (!live) return { status: "notLoaded" };
  if (!live.unsubscribe(connection)) return { status: "notSubscribed" };
  // The last client gone from an idle thread: it is unloaded (a running turn finishes first).
  // A sub-agent's thread stays: its parent decides when it ends.
  if (live.subscribers.size === 0 && live.activeTurnId === null && !live.isSubAgent) await server.closeThread(threadId);
  return { status: "unsubscribed" };
};

const loadedList: Method = async ({ server }) => ({ data: server.loadedThreadIds(), nextCursor: null });

/**
 * Drops the last `numTurns` turns of a loaded thread, and with `restore` ("code" or "both",
 * codex-ts's addition) puts back the files they changed (./undo.ts). The core counts the user's
 * messages, and a steered turn holds more than one: the count is the messages of those turns.
 */
async function rollBack(server: AppServer, live: LiveThread, numTurns: number, choice: RollbackChoice = CONVERSATION_ONLY): Promise<FilesRestored | null> {
  const turns = withTurns(server, live).turns;
  if (numTurns > turns.length) throw invalidRequest(`the thread has ${turns.length} turns; cannot roll back ${numTurns}`);
  const messages = turns.slice(turns.length - numTurns).reduce((n, t) => n + t.items.filter((i) => i.type === "userMessage").length, 0);
  return rollbackWithFiles(live, messages, choice);
}

const rollback: Method = async ({ server }, params) => {
  const live = server.requireThread(params.string("threadId"));
  const numTurns = params.optionalInteger("numTurns", 1);
  if (numTurns === undefined) throw invalidRequest("Invalid request: missing field `numTurns`");
  const files = await rollBack(server, live, numTurns, rollbackChoice(params));
  return { thread: withTurns(server, live), ...(files ? { files } : {}) };
};

const revert: Method = async ({ server }, params) => {
  const live = server.requireThread(params.string("threadId"));
  const beforeTurnId = params.string("beforeTurnId");
  const turns = withTurns(server, live).turns;
  const index = turns.findIndex((t) => t.id === beforeTurnId);
  if (index < 0) throw invalidRequest(`turn not found: ${beforeTurnId}`);
  // The reference's revert leaves the files alone.
  await rollBack(server, live, turns.length - index);
  server.broadcast("thread/reverted", { threadId: live.threadId });
  return { thread: server.threadObject(live), turnsBackwardsCursor: null, itemsBackwardsCursor: null };
};

const compact: Method = async ({ server }, params) => {
  const live = server.requireThread(params.string("threadId"));
  await live.startTurn({ type: "compact" });
  return {};
};

export const threadMethods: Record<string, (ctx: MethodContext, params: Params) => Promise<unknown>> = {
  "thread/start": start,
  "thread/resume": resume,
  "thread/fork": fork,
  "thread/list": listThreads,
  "thread/read": read,
  "thread/turns/list": listTurns,
  "thread/archive": archive,
  "thread/unarchive": unarchive,
  "thread/name/set": setName,
  "thread/unsubscribe": unsubscribe,
  "thread/loaded/list": loadedList,
  "thread/rollback": rollback,
  "thread/revert": revert,
  "thread/compact/start": compact,
  ...undoMethods,
};
