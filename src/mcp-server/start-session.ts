/**
 * The config a `codex` tool call starts its thread with, built the way `exec` builds one (config
 * layers, profile, flags), with the call's arguments as the highest layer: `model`, `profile`,
 * `cwd`, `approval-policy`, `sandbox` as flags, `config` entries as `-c key=value` overrides
 * (JSON values written as TOML). `base-instructions` / `developer-instructions` replace the
 * configured ones when the thread opens (server.ts).
 */
import { resolve } from "node:path";
import { loadConfig, type Config } from "../config/load-config.js";
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

/** The config for a `codex` call; throws ConfigError for bad overrides. */
export function codexToolConfig(params: CodexToolParams, where: SessionEnvironment): Config {
  return loadConfig({
    cwd: resolve(where.cwd, params.cwd ?? "."),
    overrides: configOverrides(params),
    profile: params.profile,
    model: params.model,
    sandboxMode: params.sandbox,
    approvalPolicy: params.approvalPolicy,
    env: where.env,
  });
}
