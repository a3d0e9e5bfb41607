/**
 * Builds a core Session for a `codex` tool call the way `exec` does (config layers, API key,
 * Responses or Chat client by `wire_api`), with the call's arguments as the highest layer:
 * `model`, `profile`, `cwd`, `approval-policy`, `sandbox` as flags, `config` entries as
 * `-c key=value` overrides (JSON values written as TOML), and `base-instructions` /
 * `developer-instructions` replacing the configured ones. The configured MCP servers start with
 * the session, as in exec. Threads are recorded like exec's (source `mcp`), so they can be listed,
 * resumed and forked, and `codex-reply` can continue one this process did not start.
 */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { codexHome } from "../config/codex-home.js";
import { loadConfig } from "../config/load-config.js";
import type { Session } from "../core/session.js";
import { ThreadManager, ThreadStartError, type StartedThread } from "../core/thread-manager.js";
import { isThreadId } from "../rollout/format.js";
import { findThreadPath } from "../rollout/list.js";
import { loadThread } from "../rollout/reconstruct.js";
import { tomlString, tomlValue } from "../util/toml-text.js";
import type { CodexToolParams } from "./tools.js";

export interface SessionEnvironment {
  env: NodeJS.ProcessEnv;
  /** What a relative (or absent) `cwd` argument is resolved against. */
  cwd: string;
}

export class SessionStartError extends Error {}

/** The `config` argument as `-c` override strings; null values are skipped. */
export function configOverrides(params: CodexToolParams): string[] {
  const overrides: string[] = [];
  for (const [key, value] of Object.entries(params.config ?? {})) {
    if (value === null || value === undefined) continue;
    const text = tomlValue(value);
    if (text === null) throw new SessionStartError(`config.${key}: this value cannot be written as TOML`);
    overrides.push(`${key}=${text}`);
  }
  if (params.compactPrompt !== undefined) overrides.push(`compact_prompt=${tomlString(params.compactPrompt)}`);
  return overrides;
}

/** One thread manager per environment (a server process has one). */
const managers = new WeakMap<NodeJS.ProcessEnv, ThreadManager>();

function threadManager(where: SessionEnvironment): ThreadManager {
  let manager = managers.get(where.env);
  if (!manager) {
    manager = new ThreadManager({
      env: where.env,
      source: "mcp",
      originator: "codex_cli_rs",
      userAgentProduct: "codex_cli_rs",
      readCodexApiKey: false,
    });
    managers.set(where.env, manager);
  }
  return manager;
}

export async function startSession(params: CodexToolParams, where: SessionEnvironment): Promise<Session> {
  const config = loadConfig({
    cwd: resolve(where.cwd, params.cwd ?? "."),
    overrides: configOverrides(params),
    profile: params.profile,
    model: params.model,
    sandboxMode: params.sandbox,
    approvalPolicy: params.approvalPolicy,
    env: where.env,
  });
  const manager = threadManager(where);
  return ready(manager, () =>
    manager.startThread({
      config,
      ...(params.developerInstructions !== undefined ? { developerInstructions: params.developerInstructions } : {}),
      ...(params.baseInstructions !== undefined ? { baseInstructions: params.baseInstructions } : {}),
    }),
  );
}

/**
 * `codex-reply` for a thread this process does not hold (the server restarted, or the thread was
 * started by `exec`): continues it from its rollout file, in the working directory it last ran in
 * when that still exists, appending to the same file. Null when no such thread is recorded.
 */
export async function resumeRecordedSession(threadId: string, where: SessionEnvironment): Promise<Session | null> {
  if (!isThreadId(threadId)) return null;
  const path = findThreadPath(codexHome(where.env), threadId);
  if (path === null) return null;
  const recorded = loadThread(path);
  const lastCwd = recorded.lastTurn?.cwd;
  const cwd = lastCwd !== undefined && isDirectory(lastCwd) ? lastCwd : where.cwd;
  const config = loadConfig({ cwd, overrides: [], env: where.env });
  const manager = threadManager(where);
  return ready(manager, () => manager.resumeRecordedThread(config, recorded));
}

/** Ends the threads started for `where` and flushes their telemetry (the server is closing). */
export async function shutdownThreads(where: SessionEnvironment): Promise<void> {
  await managers.get(where.env)?.shutdown();
}

/** Starts the thread and waits for its required MCP servers; failures become SessionStartErrors. */
async function ready(manager: ThreadManager, start: () => Promise<StartedThread>): Promise<Session> {
  try {
    const thread = await start();
    await manager.waitUntilReady(thread);
    return thread.session;
  } catch (err) {
    if (err instanceof ThreadStartError) throw new SessionStartError(err.message);
    throw err;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
