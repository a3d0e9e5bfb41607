/**
 * Finding recorded threads under `$CODEX_HOME/sessions`: by id (from file names alone), the
 * newest one for a directory (`--last`), or a listing. Listing stays cheap however long the
 * sessions are: files are ordered by modification time, and only the head of each (session_meta
 * and the first prompt) is read, plus a small tail look when a thread moved to another directory.
 */
import type { ThreadSummary } from "../protocol/threads.js";
import { readdirSync, realpathSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { SESSIONS_SUBDIR, isThreadId, parseRolloutFileName } from "./format.js";
import { ARCHIVED_SUBDIR } from "./archive.js";
import { scanRollout, tailLines } from "./read.js";
import { isContextText } from "./reconstruct.js";
import { threadNames } from "./thread-names.js";

export interface RolloutFile {
  path: string;
  threadId: string;
  /** Last write: resumed threads move up. */
  mtimeMs: number;
}

export type { ThreadSummary };

export interface ListOptions {
  /** Only threads recorded in (or last resumed in) this directory. */
  cwd?: string;
  /** Only threads a person drove (the interactive UI, an IDE), not `exec` or MCP runs. */
  interactiveOnly?: boolean;
  /** Only threads recorded with this model provider (those that name none match any). */
  provider?: string;
  /** At most this many (all when absent or 0). */
  limit?: number;
  /** Also sub-agents' threads, which are otherwise left out (they are reached through their parent). */
  includeSubAgents?: boolean;
  /** List the archived threads (`archived_sessions/`) instead. */
  archived?: boolean;
  /** Newest first by last write (default), or by creation (the time and id in the file name). */
  order?: "updated" | "created";
}

const HEAD_BYTES = 1 << 20;
const HEAD_CHUNK = 64 * 1024;

/**
 * Visits rollout files (sessions/YYYY/MM/DD/, and the flat layout of early versions) by name,
 * newest directory first, until `visit` returns true. Names only: nothing is opened or stat'ed.
 */
function walkRollouts(codexHome: string, visit: (path: string, threadId: string) => boolean, subdir = SESSIONS_SUBDIR): void {
  const walk = (dir: string, depth: number): boolean => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return false;
    }
    entries.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (depth < 3 && walk(path, depth + 1)) return true;
        continue;
      }
      const parsed = parseRolloutFileName(entry.name);
      if (parsed && visit(path, parsed.threadId)) return true;
    }
    return false;
  };
  walk(join(codexHome, subdir), 0);
}

/** Every rollout file (the archived ones when `archived`), most recently written first. */
export function rolloutFiles(codexHome: string, archived = false): RolloutFile[] {
  const files: RolloutFile[] = [];
  walkRollouts(codexHome, (path, threadId) => {
    try {
      const info = statSync(path);
      // A FIFO or device under a session file's name is no session (and reading it would hang).
      if (info.isFile()) files.push({ path, threadId, mtimeMs: info.mtimeMs });
    } catch {
      // deleted while we looked
    }
    return false;
  }, archived ? ARCHIVED_SUBDIR : SESSIONS_SUBDIR);
  return files.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.path < b.path ? 1 : -1));
}

/** The file of thread `id`, found by name; null when there is none (or `id` is not a thread id). */
export function findThreadPath(codexHome: string, id: string): string | null {
  if (!isThreadId(id)) return null;
  const wanted = id.toLowerCase();
  let found: string | null = null;
  walkRollouts(codexHome, (path, threadId) => {
    if (threadId === wanted) found = path;
    return found !== null;
  });
  return found;
}

/**
 * Whether session_meta's `source` is a person at a UI: `cli` (the interactive UI) or `vscode`
 * (the reference's app-server, IDEs). Files too old to say count as interactive.
 */
export function isInteractiveSource(source: string | null): boolean {
  return source === null || source === "cli" || source === "vscode";
}

/** The summary of the file at `path` (its thread id from the name). */
export function summaryOf(path: string, threadId: string): ThreadSummary {
  let mtimeMs = 0;
  try {
    mtimeMs = statSync(path).mtimeMs;
  } catch {
    // gone: summarised from its name
  }
  return readSummary({ path, threadId, mtimeMs });
}

/** What the head of a rollout file says about its thread. */
export function readSummary(file: RolloutFile): ThreadSummary {
  const summary: ThreadSummary = {
    id: file.threadId,
    path: file.path,
    createdAt: null,
    updatedAt: new Date(file.mtimeMs).toISOString(),
    cwd: null,
    firstPrompt: null,
    modelProvider: null,
    forkedFromId: null,
    source: null,
    parentThreadId: null,
    sessionId: null,
    gitBranch: null,
    originator: null,
    cliVersion: null,
    model: null,
    name: null,
  };
  let metaSeen = false;
  // Some writers log no prompt event; then the first typed user message stands in.
  const found: { fallback: string | null } = { fallback: null };
  try {
    scanRollout(
      file.path,
      (line) => {
        // Events that cannot hold the prompt are passed over without parsing them.
        const kind = line.type === "event_msg" ? line.payloadType : undefined;
        if (kind !== undefined && kind !== "user_message" && kind !== "item_completed") return true;
        if (line.type === "turn_context") {
          summary.model ??= isObject(line.payload) ? str(line.payload.model) : null;
          return true;
        }
        const p = isObject(line.payload) ? line.payload : {};
        if (line.type === "session_meta" && !metaSeen) {
          metaSeen = true;
          if (typeof p.id === "string") summary.id = p.id;
          summary.createdAt = str(p.timestamp);
          summary.cwd = str(p.cwd);
          summary.modelProvider = str(p.model_provider);
          summary.forkedFromId = str(p.forked_from_id);
          summary.gitBranch = isObject(p.git) ? str(p.git.branch) : null;
          summary.originator = str(p.originator);
          summary.cliVersion = str(p.cli_version);
          summary.source = typeof p.source === "string" ? p.source : p.source === undefined ? null : JSON.stringify(p.source);
          summary.parentThreadId = str(p.parent_thread_id);
          summary.sessionId = str(p.session_id);
        } else if (line.type === "event_msg") {
          summary.firstPrompt ??= promptFromEvent(p);
        } else if (line.type === "response_item") {
          found.fallback ??= promptFromItem(p);
        }
        return !(metaSeen && summary.firstPrompt !== null);
      },
      { maxBytes: HEAD_BYTES, chunkBytes: HEAD_CHUNK },
    );
  } catch {
    // unreadable: listed with what its name says
  }
  summary.firstPrompt ??= found.fallback;
  return summary;
}

/**
 * Threads newest first, filtered, read one head at a time as the caller asks for the next:
 * a picker can show the first page of thousands of threads without reading the rest.
 */
export function* iterateThreads(codexHome: string, options: Omit<ListOptions, "limit"> = {}): Generator<ThreadSummary, void, undefined> {
  const cwd = options.cwd === undefined ? undefined : canonical(options.cwd);
  const names = threadNames(codexHome);
  const files = rolloutFiles(codexHome, options.archived === true);
  if (options.order === "created") files.sort((a, b) => createdKey(b) - createdKey(a) || (a.path < b.path ? 1 : -1));
  for (const file of files) {
    const summary = readSummary(file);
    if (summary.parentThreadId !== null && !options.includeSubAgents) continue;
    summary.name = names.get(summary.id.toLowerCase())?.name ?? null;
    if (options.provider && summary.modelProvider && summary.modelProvider !== options.provider) continue;
    if (options.interactiveOnly && !isInteractiveSource(summary.source)) continue;
    if (cwd !== undefined && !inDirectory(summary, cwd)) continue;
    yield summary;
  }
}

/** When the file name says the thread was created (local time, to the second), as a sortable number. */
function createdKey(file: RolloutFile): number {
  const stamp = parseRolloutFileName(basename(file.path))?.stamp;
  return stamp ? Number(stamp.replace(/\D/g, "")) : 0;
}

/** Threads newest first, filtered; reads heads only until `limit` matches are found. */
export function listThreads(codexHome: string, options: ListOptions = {}): ThreadSummary[] {
  const out: ThreadSummary[] = [];
  for (const summary of iterateThreads(codexHome, options)) {
    out.push(summary);
    if (options.limit && out.length >= options.limit) break;
  }
  return out;
}

/** The thread `--last` picks: most recently written, recorded in `cwd` unless `cwd` is undefined. */
export function latestThread(codexHome: string, options: Omit<ListOptions, "limit">): ThreadSummary | null {
  return listThreads(codexHome, { ...options, limit: 1 })[0] ?? null;
}

/**
 * As the reference decides: the directory the thread was started in, or the one its last turn
 * ran in (a thread resumed with `-C elsewhere` belongs there too). The last turn_context is
 * looked for in the file's tail only, so this stays cheap.
 */
function inDirectory(summary: ThreadSummary, cwd: string): boolean {
  if (summary.cwd !== null && canonical(summary.cwd) === cwd) return true;
  try {
    for (const raw of tailLines(summary.path)) {
      if (!raw.includes('"turn_context"')) continue;
      const line = JSON.parse(raw) as { type?: unknown; payload?: { cwd?: unknown } };
      if (line.type !== "turn_context") continue;
      return typeof line.payload?.cwd === "string" && canonical(line.payload.cwd) === cwd;
    }
  } catch {
    // an unreadable tail decides nothing
  }
  return false;
}

function canonical(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return resolve(dir);
  }
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

/** `user_message` (ours, older reference) or `item_completed` of a UserMessage (reference 0.16x). */
function promptFromEvent(p: Json): string | null {
  if (p.type === "user_message") return str(p.message);
  if (p.type === "item_completed" && isObject(p.item) && p.item.type === "UserMessage" && Array.isArray(p.item.content)) {
    const text = p.item.content.map((c) => (isObject(c) && typeof c.text === "string" ? c.text : "")).join("");
    return text || null;
  }
  return null;
}

/** A user message response item typed by a person (not harness context), as a last resort. */
function promptFromItem(p: Json): string | null {
  if (p.type !== "message" || p.role !== "user" || !Array.isArray(p.content)) return null;
  const text = p.content.map((c) => (isObject(c) && c.type === "input_text" && typeof c.text === "string" ? c.text : "")).join("");
  return text && !isContextText(text) && !text.startsWith("<") ? text : null;
}
