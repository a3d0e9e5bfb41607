/**
 * Forking copies a recorded thread into a new one: a new id and a new file whose session_meta
 * names the parent (`forked_from_id`), followed by the parent's lines exactly as stored
 * (response items, events, turn contexts, and line kinds we do not know, so another writer's
 * tools still find theirs). The parent's own session_meta is not copied: the first one in a file
 * names its thread. The parent file is only read.
 */
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { uuidv7 } from "../util/ids.js";
import { rolloutPath, serializeLine, utcTimestamp, type SessionMetaPayload } from "./format.js";
import { gitInfo } from "./git-info.js";
import { scanRollout } from "./read.js";
import { PRIVATE_DIR_MODE } from "../util/atomic-write.js";

export interface ForkParams {
  codexHome: string;
  sourcePath: string;
  /** The new thread's working directory. */
  cwd: string;
  originator: string;
  cliVersion: string;
  source: string;
  /** The new thread's provider; the parent's when absent. */
  modelProvider?: string;
}

export interface ForkedThread {
  threadId: string;
  path: string;
  parentId: string;
  warnings: string[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

export function forkThread(params: ForkParams): ForkedThread {
  const found: { meta: Json | null } = { meta: null };
  const lines: string[] = [];
  const scan = scanRollout(params.sourcePath, (line) => {
    if (line.type !== "session_meta") lines.push(line.raw);
    else if (found.meta === null && isObject(line.payload)) found.meta = line.payload;
  });
  const parentMeta: Json = found.meta ?? {};
  const parentId = typeof parentMeta.id === "string" ? parentMeta.id : null;
  if (parentId === null) throw new Error(`${params.sourcePath}: no session_meta line; cannot fork it`);

  const now = new Date();
  const threadId = uuidv7(now.getTime());
  const base = parentMeta.base_instructions;
  const meta: SessionMetaPayload = {
    id: threadId,
    forked_from_id: parentId,
    timestamp: utcTimestamp(now),
    cwd: params.cwd,
    originator: params.originator,
    cli_version: params.cliVersion,
    source: params.source,
    model_provider: params.modelProvider ?? (typeof parentMeta.model_provider === "string" ? parentMeta.model_provider : "openai"),
    base_instructions: isObject(base) && typeof base.text === "string" ? { text: base.text } : null,
  };
  const git = gitInfo(params.cwd, (message) => scan.warnings.push(message));
  if (git) meta.git = git;

  const path = rolloutPath(params.codexHome, threadId, now);
  mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
  const body = Buffer.from(serializeLine("session_meta", meta, now) + lines.map((l) => `${l}\n`).join(""), "utf8");
  const fd = openSync(path, "wx", 0o600);
  try {
    for (let off = 0; off < body.length; ) off += writeSync(fd, body, off);
  } finally {
    closeSync(fd);
  }
  return { threadId, path, parentId, warnings: scan.warnings };
}
