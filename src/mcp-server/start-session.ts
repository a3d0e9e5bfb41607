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
import { providerNeedsKey, resolveApiKey } from "../config/api-key.js";
import { codexHome } from "../config/codex-home.js";
import { loadConfig, type Config } from "../config/load-config.js";
import { baseInstructions } from "../core/prompts.js";
import { Session } from "../core/session.js";
import { modelClientFor, sessionOptionsFromConfig } from "../core/session-from-config.js";
import { packageVersion } from "../util/version.js";
import { modelInfoFor } from "../model/catalog.js";
import { isThreadId } from "../rollout/format.js";
import { findThreadPath } from "../rollout/list.js";
import { openThread, type OpenedThread } from "../core/open-thread.js";
import { loadThread } from "../rollout/reconstruct.js";
import { RolloutRecorder } from "../rollout/recorder.js";
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
  const thread = (): OpenedThread =>
    openThread({
      target: null,
      ephemeral: false,
      codexHome: config.codexHome,
      cwd: config.cwd,
      modelProvider: config.modelProviderId,
      originator: originator(where),
      cliVersion: packageVersion(),
      source: ROLLOUT_SOURCE,
      baseInstructions: params.baseInstructions ?? config.baseInstructionsOverride ?? baseInstructions(modelInfoFor(config.model)),
    });
  return sessionFor(config, where, thread, params);
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
  const thread = (): OpenedThread => ({
    recorder: RolloutRecorder.append(path),
    resume: { thread: recorded, warnOnModelChange: true },
    notices: [],
  });
  return sessionFor(config, where, thread, {});
}

const ROLLOUT_SOURCE = "mcp";

function originator(where: SessionEnvironment): string {
  return where.env.CODEX_INTERNAL_ORIGINATOR_OVERRIDE ?? "codex_cli_rs";
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The Session for a loaded config, recorded as `openThread` decides (called only once the API
 * key is known to be there, so a refused start leaves no file behind).
 */
async function sessionFor(
  config: Config,
  where: SessionEnvironment,
  openThreadForSession: () => OpenedThread,
  instructions: { developerInstructions?: string; baseInstructions?: string },
): Promise<Session> {
  const apiKey = resolveApiKey(config.provider, config.codexHome, where.env, false);
  if (!apiKey && providerNeedsKey(config.provider)) {
    throw new SessionStartError(
      `No API key found for provider '${config.provider.id}'. Set ${config.provider.envKey}, or run \`codex-ts login --with-api-key\`.`,
    );
  }
  const version = packageVersion();
  const identity = {
    apiKey,
    originator: originator(where),
    userAgent: `codex_cli_rs/${version} (${process.platform}; ${process.arch}) node/${process.versions.node}`,
    env: where.env,
  };
  const client = await modelClientFor(config.provider, identity);
  let thread: OpenedThread;
  try {
    thread = openThreadForSession();
  } catch (err) {
    throw new SessionStartError(`Could not open the session's rollout file: ${(err as Error).message}`);
  }
  const session = new Session({
    ...sessionOptionsFromConfig(config, client),
    developerInstructions: instructions.developerInstructions ?? config.developerInstructions,
    baseInstructionsOverride: instructions.baseInstructions ?? config.baseInstructionsOverride,
    threadId: thread.threadId,
    recorder: thread.recorder,
    resume: thread.resume,
  });
  // As in exec: a `required` MCP server that did not start fails the session's start.
  try {
    await session.mcpReady();
  } catch (err) {
    session.submit({ type: "shutdown" });
    // Drained until shutdown_complete, so its servers have ended before the error goes back.
    while ((await session.nextEvent()) !== null) {
      // Nobody sees this session's events.
    }
    throw new SessionStartError((err as Error).message);
  }
  return session;
}
