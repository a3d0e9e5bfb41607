/**
 * Builds a core Session for a `codex` tool call the way `exec` does (config layers, API key,
 * Responses or Chat client by `wire_api`), with the call's arguments as the highest layer:
 * `model`, `profile`, `cwd`, `approval-policy`, `sandbox` as flags, `config` entries as
 * `-c key=value` overrides (JSON values written as TOML), and `base-instructions` /
 * `developer-instructions` replacing the configured ones. The configured MCP servers start with
 * the session, as in exec.
 */
import { resolve } from "node:path";
import { providerNeedsKey, resolveApiKey } from "../config/api-key.js";
import { loadConfig } from "../config/load-config.js";
import { Session } from "../core/session.js";
import { modelClientFor, sessionOptionsFromConfig } from "../core/session-from-config.js";
import { packageVersion } from "../cli/version.js";
import { tomlString, tomlValue } from "../mcp-cli/toml-text.js";
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
  const apiKey = resolveApiKey(config.provider, config.codexHome, where.env, false);
  if (!apiKey && providerNeedsKey(config.provider)) {
    throw new SessionStartError(
      `No API key found for provider '${config.provider.id}'. Set ${config.provider.envKey}, or run \`codex-ts login --with-api-key\`.`,
    );
  }
  const version = packageVersion();
  const identity = {
    apiKey,
    originator: where.env.CODEX_INTERNAL_ORIGINATOR_OVERRIDE ?? "codex_cli_rs",
    userAgent: `codex_cli_rs/${version} (${process.platform}; ${process.arch}) node/${process.versions.node}`,
    env: where.env,
  };
  const base = sessionOptionsFromConfig(config, await modelClientFor(config.provider, identity));
  const session = new Session({
    ...base,
    developerInstructions: params.developerInstructions ?? config.developerInstructions,
    baseInstructionsOverride: params.baseInstructions ?? config.baseInstructionsOverride,
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
