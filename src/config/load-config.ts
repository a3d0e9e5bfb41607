/**
 * Builds the effective configuration: built-in defaults, then $CODEX_HOME/config.toml, then the
 * selected profile, then `-c` overrides, then explicit CLI flags. Values are checked against the
 * keys the reference defines; a wrong type is an error naming the key, an unknown key a warning.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parse } from "smol-toml";
import {
  APPROVAL_POLICIES,
  REASONING_EFFORTS,
  REASONING_SUMMARIES,
  SANDBOX_MODES,
  sandboxPolicyFor,
  type AskForApproval,
  type ReasoningEffort,
  type ReasoningSummary,
  type SandboxMode,
  type SandboxPolicy,
} from "../protocol/policy.js";
import type { ShellEnvironmentPolicy } from "../exec/env.js";
import {
  MAX_RETRIES_CAP,
  builtinProviders,
  type ModelProvider,
  type WireApi,
} from "../model/provider.js";
import { DEFAULT_PROJECT_DOC_MAX_BYTES, loadAgentsMd } from "./agents-md.js";
import { codexHome } from "./codex-home.js";
import { ConfigError, applyOverride, parseOverride, type TomlTable } from "./overrides.js";
import { KNOWN_TOP_LEVEL_KEYS } from "./known-keys.js";

export const DEFAULT_MODEL = "gpt-5.5";

export interface CliConfigInput {
  cwd: string;
  overrides: string[];
  profile?: string;
  model?: string;
  sandboxMode?: SandboxMode;
  approvalPolicy?: AskForApproval;
  addDirs?: string[];
  env?: NodeJS.ProcessEnv;
}

export interface Config {
  codexHome: string;
  cwd: string;
  model: string;
  modelProviderId: string;
  provider: ModelProvider;
  approvalPolicy: AskForApproval;
  sandboxMode: SandboxMode;
  sandboxPolicy: SandboxPolicy;
  reasoningEffort: ReasoningEffort | null;
  /** null: not configured, so the request leaves the choice to the model (as the reference does). */
  reasoningSummary: ReasoningSummary | null;
  verbosity: "low" | "medium" | "high" | null;
  developerInstructions: string | null;
  baseInstructionsOverride: string | null;
  userInstructions: string | null;
  shellEnvironmentPolicy: ShellEnvironmentPolicy;
  /** Problems that do not stop the run (unknown keys), shown to the user once. */
  warnings: string[];
}

export function loadConfig(input: CliConfigInput): Config {
  const env = input.env ?? process.env;
  const home = codexHome(env);
  const file = join(home, "config.toml");
  const table = readToml(file);
  const warnings: string[] = [];
  const overrides = input.overrides.map(parseOverride);
  // A profile sits between the file and -c overrides; -c may itself choose the profile.
  const chosen = overrides.filter((o) => o.path.length === 1 && o.path[0] === "profile").pop()?.value;
  const profileName = input.profile ?? (typeof chosen === "string" ? chosen : optional(table, "profile", "string", file));
  if (profileName) {
    const profiles = (table.profiles ?? {}) as TomlTable;
    const profile = profiles[profileName];
    if (!profile || typeof profile !== "object") throw new ConfigError(`${file}: profile '${profileName}' is not defined under [profiles]`);
    Object.assign(table, profile);
  }
  for (const override of overrides) applyOverride(table, override);
  for (const key of Object.keys(table)) {
    if (!KNOWN_TOP_LEVEL_KEYS.has(key)) warnings.push(`${file}: unknown config key '${key}' is ignored`);
  }

  const cwd = resolve(input.cwd);
  const providers = builtinProviders(optional(table, "openai_base_url", "string", file) ?? env.OPENAI_BASE_URL ?? undefined);
  const userProviders = (table.model_providers ?? {}) as TomlTable;
  for (const [id, raw] of Object.entries(userProviders)) providers[id] = providerFromToml(id, raw, file);
  const modelProviderId = optional(table, "model_provider", "string", file) ?? "openai";
  const provider = providers[modelProviderId];
  if (!provider) throw new ConfigError(`${file}: model_provider '${modelProviderId}' is not defined under [model_providers]`);

  const sandboxMode = input.sandboxMode ?? oneOf(table, "sandbox_mode", SANDBOX_MODES, file) ?? "read-only";
  const workspace = (table.sandbox_workspace_write ?? {}) as TomlTable;
  const writableRoots = [...stringList(workspace, "writable_roots", file), ...(input.addDirs ?? []).map((d) => resolve(cwd, d))];
  const sandboxPolicy = sandboxPolicyFor(sandboxMode, writableRoots);
  if (sandboxPolicy.type === "workspace-write") {
    sandboxPolicy.network_access = workspace.network_access === true;
    sandboxPolicy.exclude_slash_tmp = workspace.exclude_slash_tmp === true;
    sandboxPolicy.exclude_tmpdir_env_var = workspace.exclude_tmpdir_env_var === true;
  }

  const instructionsFile = optional(table, "model_instructions_file", "string", file) ?? optional(table, "experimental_instructions_file", "string", file);
  return {
    codexHome: home,
    cwd,
    model: input.model ?? optional(table, "model", "string", file) ?? DEFAULT_MODEL,
    modelProviderId,
    provider,
    approvalPolicy: input.approvalPolicy ?? oneOf(table, "approval_policy", APPROVAL_POLICIES, file) ?? "on-request",
    sandboxMode,
    sandboxPolicy,
    reasoningEffort: oneOf(table, "model_reasoning_effort", REASONING_EFFORTS, file) ?? null,
    reasoningSummary: oneOf(table, "model_reasoning_summary", REASONING_SUMMARIES, file) ?? null,
    verbosity: oneOf(table, "model_verbosity", ["low", "medium", "high"] as const, file) ?? null,
    developerInstructions: optional(table, "developer_instructions", "string", file) ?? null,
    baseInstructionsOverride: instructionsFile ? readInstructions(resolve(home, instructionsFile)) : null,
    userInstructions: loadAgentsMd({
      codexHome: home,
      cwd,
      maxBytes: optional(table, "project_doc_max_bytes", "number", file) ?? DEFAULT_PROJECT_DOC_MAX_BYTES,
      fallbackFilenames: stringList(table, "project_doc_fallback_filenames", file),
      rootMarkers: table.project_root_markers === undefined ? [".git"] : stringList(table, "project_root_markers", file),
    }),
    shellEnvironmentPolicy: (table.shell_environment_policy ?? {}) as ShellEnvironmentPolicy,
    warnings,
  };
}

function readToml(file: string): TomlTable {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return {};
  }
  try {
    return parse(text) as TomlTable;
  } catch (err) {
    throw new ConfigError(`${file}: ${(err as Error).message}`);
  }
}

function readInstructions(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    throw new ConfigError(`model_instructions_file ${path}: ${(err as Error).message}`);
  }
}

type Kind = { string: string; number: number; boolean: boolean };

function optional<K extends keyof Kind>(table: TomlTable, key: string, kind: K, file: string): Kind[K] | undefined {
  const value = table[key];
  if (value === undefined) return undefined;
  if (typeof value !== kind) throw new ConfigError(`${file}: ${key}: expected a ${kind}, got ${JSON.stringify(value)}`);
  return value as Kind[K];
}

function oneOf<T extends string>(table: TomlTable, key: string, allowed: readonly T[], file: string): T | undefined {
  const value = optional(table, key, "string", file);
  if (value === undefined) return undefined;
  if (!allowed.includes(value as T)) {
    throw new ConfigError(`${file}: ${key}: '${value}' is not one of ${allowed.join(", ")}`);
  }
  return value as T;
}

function stringList(table: TomlTable, key: string, file: string): string[] {
  const value = table[key];
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) {
    throw new ConfigError(`${file}: ${key}: expected an array of strings`);
  }
  return value as string[];
}

function stringMap(table: TomlTable, key: string, file: string): Record<string, string> {
  const value = table[key];
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null || Object.values(value).some((v) => typeof v !== "string")) {
    throw new ConfigError(`${file}: ${key}: expected a table of strings`);
  }
  return value as Record<string, string>;
}

function providerFromToml(id: string, raw: unknown, file: string): ModelProvider {
  if (!raw || typeof raw !== "object") throw new ConfigError(`${file}: model_providers.${id}: expected a table`);
  const t = raw as TomlTable;
  const where = `${file}: model_providers.${id}`;
  const baseUrl = optional(t, "base_url", "string", where);
  if (!baseUrl) throw new ConfigError(`${where}: base_url is required`);
  const wireApi = oneOf(t, "wire_api", ["responses", "chat"] as const, where) ?? "responses";
  const retries = (key: string, fallback: number): number =>
    Math.min(MAX_RETRIES_CAP, Math.max(0, optional(t, key, "number", where) ?? fallback));
  return {
    id,
    name: optional(t, "name", "string", where) ?? id,
    baseUrl,
    envKey: optional(t, "env_key", "string", where) ?? null,
    envKeyInstructions: optional(t, "env_key_instructions", "string", where) ?? null,
    wireApi: wireApi as WireApi,
    queryParams: stringMap(t, "query_params", where),
    httpHeaders: stringMap(t, "http_headers", where),
    envHttpHeaders: stringMap(t, "env_http_headers", where),
    requestMaxRetries: retries("request_max_retries", 4),
    streamMaxRetries: retries("stream_max_retries", 5),
    streamIdleTimeoutMs: optional(t, "stream_idle_timeout_ms", "number", where) ?? 300_000,
  };
}
