/**
 * `codex-ts sessions` (list recorded threads) and `codex-ts fork` (copy one into a new thread).
 * Neither loads config or talks to a model: they only read (and, for fork, write) session files.
 */
import { resolve } from "node:path";
import { codexHome } from "../config/codex-home.js";
import type { ThreadSummary } from "../protocol/threads.js";
import { forkRecordedThread, recordedThreads, sessionsFolder, ThreadNotFoundError } from "../host/recorded-threads.js";
import { errorMessage } from "../util/errors.js";

export interface SessionsOptions {
  all?: boolean;
  json?: boolean;
  limit?: string;
}

export function runSessionsCommand(opts: SessionsOptions): number {
  const limit = opts.limit === undefined ? 20 : Number(opts.limit);
  if (!Number.isInteger(limit) || limit < 0) {
    process.stderr.write(`--limit ${opts.limit}: expected a whole number (0 for no limit)\n`);
    return 2;
  }
  const cwd = resolve(process.cwd());
  const threads = recordedThreads({ codexHome: codexHome(), cwd: opts.all ? undefined : cwd }, limit);
  if (opts.json) {
    process.stdout.write(`${JSON.stringify(threads.map(jsonSummary), null, 2)}\n`);
    return 0;
  }
  if (threads.length === 0) {
    const where = opts.all ? `under ${sessionsFolder(codexHome())}` : `for ${cwd} (--all lists every directory's)`;
    process.stderr.write(`No recorded sessions ${where}.\n`);
    return 0;
  }
  const named = threads.some((t) => t.name !== null);
  const rows = threads.map((t) => [t.id, localTime(t.updatedAt), ...(opts.all ? [t.cwd ?? "?"] : []), ...(named ? [t.name ?? ""] : []), oneLine(t.firstPrompt)]);
  const header = ["SESSION ID", "UPDATED", ...(opts.all ? ["DIRECTORY"] : []), ...(named ? ["NAME"] : []), "FIRST PROMPT"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (i === header.length - 1 ? 0 : (r[i] ?? "").length))));
  const line = (cells: string[]): string => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join("  ");
  process.stdout.write(`${[line(header), ...rows.map(line)].join("\n")}\n`);
  return 0;
}

export interface ForkOptions {
  last?: boolean;
  all?: boolean;
  /** A first message: it needs the interactive UI, so the way to send it is printed. */
  prompt?: string;
}

/** Forks a recorded thread; prints the new thread's id on stdout (for `exec resume`). */
export function runForkCommand(sessionId: string | undefined, opts: ForkOptions): number {
  const home = codexHome();
  const cwd = resolve(process.cwd());
  try {
    const target = { kind: "fork" as const, sessionId, last: opts.last === true, all: opts.all === true };
    const fork = forkRecordedThread(home, cwd, target, process.env.CODEX_INTERNAL_ORIGINATOR_OVERRIDE ?? "codex_cli_ts");
    if (fork === null) {
      process.stderr.write(`No recorded session${opts.all ? "" : ` in ${cwd}`} to fork.\n`);
      return 1;
    }
    for (const warning of fork.warnings) process.stderr.write(`warning: ${warning}\n`);
    const next = opts.prompt === undefined ? '"<prompt>"' : JSON.stringify(opts.prompt);
    process.stderr.write(`Forked session ${fork.parentId} into ${fork.threadId} (${fork.path}).\nContinue it with: codex-ts exec resume ${fork.threadId} ${next}\n`);
    process.stdout.write(`${fork.threadId}\n`);
    return 0;
  } catch (err) {
    process.stderr.write(`${err instanceof ThreadNotFoundError ? err.message : `Could not fork: ${errorMessage(err)}`}\n`);
    return 1;
  }
}

/** Field names as the reference's thread listings spell them. */
function jsonSummary(t: ThreadSummary): Record<string, unknown> {
  return {
    id: t.id,
    path: t.path,
    created_at: t.createdAt,
    updated_at: t.updatedAt,
    cwd: t.cwd,
    first_user_message: t.firstPrompt,
    thread_name: t.name,
    model_provider: t.modelProvider,
    forked_from_id: t.forkedFromId,
    source: t.source,
  };
}

function localTime(iso: string): string {
  const d = new Date(iso);
  const p = (n: number): string => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

function oneLine(text: string | null, max = 80): string {
  if (text === null) return "(no prompt recorded)";
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
