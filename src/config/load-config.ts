/**
 * Builds the effective configuration from layers, lowest first: built-in defaults,
 * $CODEX_HOME/config.toml, the selected profile's `$CODEX_HOME/NAME.config.toml`, the trusted
 * project's `.codex/config.toml` files (project root down to cwd), the selected profile's
 * `[profiles.NAME]` table (profiles.ts), `-c key=value` overrides, then explicit CLI flags (including
 * `--enable` / `--disable` and `--oss`). Every layer is checked against the schema (schema.ts):
 * a wrong type or value is a ConfigError naming `file:line: key`, an unknown key a warning.
 */
import { readTextFile } from "../util/bounded-read.js";
import { join, resolve } from "node:path";
import {
  APPROVAL_POLICIES,
  REASONING_EFFORTS,
  REASONING_SUMMARIES,
  type AskForApproval,
  type ReasoningEffort,
  type ReasoningSummary,
  type SandboxMode,
  type SandboxPolicy,
} from "../protocol/policy.js";
import type { ShellEnvironmentPolicy } from "../exec/env.js";
import type { FileSystemRules } from "../sandbox/fs-rules.js";
import type { HistorySettings } from "../history/prompt-history.js";
import { otelSettingsFrom, type OtelSettings } from "../telemetry/settings.js";
import {
  DEFAULT_REQUEST_MAX_RETRIES,
  DEFAULT_STREAM_IDLE_TIMEOUT_MS,
  DEFAULT_STREAM_MAX_RETRIES,
  MAX_RETRIES_CAP,
  OPENAI_DEFAULT_BASE_URL,
  builtinProviders,
  type ModelProvider,
} from "../model/provider.js";
import { loadAgentsMd } from "./agents-md.js";
import { loadAgentsSettings, type AgentsSettings } from "./agent-roles.js";
import { codexHome } from "./codex-home.js";
import { FEATURE_NAMES, featureWarnings, resolveFeatures, unknownFeatureFlags } from "./features.js";
import { didYouMean } from "../util/nearest.js";
import { checkLayer, fixedLayer, mergeLayers, overrideLayer, readFileLayer, whereSet, type Layer } from "./layers.js";
import { mcpServersFromToml, type McpServerConfig } from "./mcp.js";
import { hookSources, stateOverrides, type HookSettings } from "./hook-sources.js";
import { DEFAULT_OSS_MODELS, DEFAULT_OSS_PROVIDER, OSS_PROVIDERS, isOssProvider, ossBaseUrl } from "./oss.js";
import { ConfigError, type TomlTable } from "./overrides.js";
import { bothFormsWarning, chooseProfile, missingProfile, profileTableLayer, readProfileFile } from "./profiles.js";
import { selectPermissions } from "./permissions.js";
import { loadProjectConfig, type TrustLevel } from "./project-config.js";
import { DEFAULT_MODEL, defaultsTable, isTable, validateTable } from "./schema.js";
import { resolveWebSearch } from "./web-search.js";
import type { WebSearchSettings } from "../protocol/web-search.js";
import { errorMessage } from "../util/errors.js";

export { DEFAULT_MODEL };

export interface CliConfigInput {
  cwd: string;
  overrides: string[];
  profile?: string;
  model?: string;
  sandboxMode?: SandboxMode;
  /** `-P NAME`: the permission profile, instead of `default_permissions` and `sandbox_mode`. */
  permissionProfile?: string;
  approvalPolicy?: AskForApproval;
  addDirs?: string[];
  env?: NodeJS.ProcessEnv;
  /** `--oss`: use a local provider, `localProvider` else `oss_provider` else ollama. */
  oss?: boolean;
  /** `--local-provider`: which local provider `--oss` uses. */
  localProvider?: string;
  /** `--enable NAME` (repeatable): `features.NAME = true`. */
  enable?: string[];
  /** `--disable NAME` (repeatable): `features.NAME = false`. */
  disable?: string[];
  /** `--search`: `web_search = "live"`. */
  search?: boolean;
  /** `--dangerously-bypass-hook-trust`: enabled hooks run without being trusted first. */
  bypassHookTrust?: boolean;
  /** `--strict-config`: unknown keys (warnings otherwise) are errors. */
  strict?: boolean;
  /** `--ignore-user-config`: `$CODEX_HOME/config.toml` is not read (credentials still live in CODEX_HOME). */
  ignoreUserConfig?: boolean;
  /** `--ignore-rules`: no `.rules` file is loaded, the user's or a project's. */
  ignoreRules?: boolean;
}


export interface Config {
  codexHome: string;
  cwd: string;
  model: string;
  /** Whether the user chose `model` (config, profile, `-c`, `--model`) rather than taking the default. */
  modelChosen: boolean;
  modelProviderId: string;
  provider: ModelProvider;
  approvalPolicy: AskForApproval;
  sandboxMode: SandboxMode;
  sandboxPolicy: SandboxPolicy;
  /** What the permission profile denies or keeps read-only beyond the policy (the built-in denials for `sandbox_mode`). */
  fileSystemRules: FileSystemRules;
  /** The permission profile in effect (`default_permissions`, `-P`); null when `sandbox_mode` decided. */
  permissionProfile: string | null;
  reasoningEffort: ReasoningEffort | null;
  /** `plan_mode_reasoning_effort`: the effort while planning; null: `reasoningEffort`. */
  planModeReasoningEffort: ReasoningEffort | null;
  /** null: not configured, so the request leaves the choice to the model (as the reference does). */
  reasoningSummary: ReasoningSummary | null;
  verbosity: "low" | "medium" | "high" | null;
  developerInstructions: string | null;
  baseInstructionsOverride: string | null;
  userInstructions: string | null;
  shellEnvironmentPolicy: ShellEnvironmentPolicy;
  /** Problems that do not stop the run (unknown keys, skipped files), shown to the user once. */
  warnings: string[];

  /** The active profile's name, null when none is selected. */
  profile: string | null;
  /** Every feature flag the schema knows, resolved (defaults, legacy toggles, `[features]`, flags). */
  features: Record<string, boolean>;
  /** `notify`: the program and its leading arguments; null when unset or empty. */
  notify: string[] | null;
  history: HistorySettings;
  /** `[ghost_snapshot]`: undo's snapshots of the working tree (see docs/undo.md). */
  undo: UndoSettings;
  /** Where `.rules` files are read from: `$CODEX_HOME/rules`, then trusted projects' `.codex/rules`. */
  rulesFolders: string[];
  /** The hosted web search tool's settings; null when it is not offered (disabled, or a Chat provider). */
  webSearch: WebSearchSettings | null;
  /** `[otel]`: where the OpenTelemetry events go (nowhere by default). */
  otel: OtelSettings;
  /** `[agents]` and the sub-agent roles (built-in, the user's, a trusted project's). */
  agents: AgentsSettings;
  /** `[mcp_servers.<name>]`, checked and with defaults filled in. */
  mcpServers: Record<string, McpServerConfig>;
  /** Where lifecycle hooks are configured (hooks.json and `[hooks]` of each active layer) and how trust applies. */
  hooks: HookSettings;
  projectDocMaxBytes: number;
  projectDocFallbackFilenames: string[];
  projectRootMarkers: string[];
  /** The working directory's `[projects."<path>"] trust_level`, null when unset. */
  projectTrustLevel: TrustLevel | null;
  /** The warnings about project config files skipped because their trust was never decided (also in `warnings`). */
  undecidedTrustWarnings: string[];
  /** Config files that were read, lowest precedence first (user file, profile file, trusted project files). */
  configFiles: string[];
  reviewModel: string | null;
  modelContextWindow: number | null;
  modelAutoCompactTokenLimit: number | null;
  toolOutputTokenLimit: number | null;
  modelSupportsReasoningSummaries: boolean | null;
  showRawAgentReasoning: boolean;
  hideAgentReasoning: boolean;
  suppressUnstableFeaturesWarning: boolean;
  /** The compaction prompt (`compact_prompt`, else `experimental_compact_prompt_file`'s text). */
  compactPrompt: string | null;
  ossProvider: string | null;
  /** The merged table of every layer (defaults included), for keys not surfaced above. */
  toml: TomlTable;
}

export function loadConfig(input: CliConfigInput): Config {
  const env = input.env ?? process.env;
  const home = codexHome(env);
  const userFile = join(home, "config.toml");
  const cwd = resolve(input.cwd);
  const warnings: string[] = [];

  const defaults = fixedLayer("built-in defaults", defaultsTable());
  const user = input.ignoreUserConfig ? null : readFileLayer(userFile);
  if (user) checkLayer(user, warnings, home);
  const overrides = input.overrides.map((raw) => {
    const layer = overrideLayer(raw);
    checkLayer(layer, warnings, cwd);
    return layer;
  });
  const base: Layer[] = [defaults, ...(user ? [user] : []), ...overrides];
  const choice = chooseProfile(input.profile, base, mergeLayers(base), userFile);
  const profileFile = choice === null ? null : readProfileFile(home, choice, warnings);
  const userLayers: Layer[] = [defaults, ...(user ? [user] : []), ...(profileFile ? [profileFile] : []), ...overrides];
  const early = mergeLayers(userLayers);

  const project = loadProjectConfig({
    cwd,
    codexHome: home,
    userConfigFile: userFile,
    projects: early.projects,
    rootMarkers: strings(early.project_root_markers),
  });
  warnings.push(...project.warnings);

  const profileTable = choice === null ? null : profileTableLayer(choice.name, early, userLayers, userFile);
  if (choice !== null && !profileFile && !profileTable) throw missingProfile(home, choice, userFile);
  if (choice !== null && profileFile && profileTable) warnings.push(bothFormsWarning(profileFile, choice.name, userFile));

  const belowFlags = [
    defaults,
    ...(user ? [user] : []),
    ...(profileFile ? [profileFile] : []),
    ...project.layers,
    ...(profileTable ? [profileTable] : []),
    ...overrides,
  ];
  const flags = flagsLayer(input, mergeLayers(belowFlags), belowFlags);
  checkLayer(flags, warnings, null);
  const layers = [...belowFlags, flags];
  const t = mergeLayers(layers);
  const where = (path: string[]): string => whereSet(layers, path, userFile);

  const providers = builtinProviders(str(t, "openai_base_url") ?? env.OPENAI_BASE_URL ?? undefined);
  for (const id of OSS_PROVIDERS) {
    const builtin = providers[id];
    if (builtin) builtin.baseUrl = ossBaseUrl(id, env);
  }
  const builtinIds = Object.keys(providers);
  for (const [id, raw] of Object.entries(table(t.model_providers))) {
    if (builtinIds.includes(id)) {
      warnings.push(`${where(["model_providers", id])}: model_providers.${id} is ignored: the built-in provider '${id}' cannot be redefined`);
      continue;
    }
    providers[id] = providerFromToml(id, table(raw));
  }
  const modelProviderId = str(t, "model_provider") ?? "openai";
  const provider = providers[modelProviderId];
  if (!provider) {
    const known = Object.keys(providers).join(", ");
    throw new ConfigError(`${where(["model_provider"])}: model_provider: '${modelProviderId}' is not a built-in provider or defined under [model_providers] (known: ${known})`);
  }

  const permissions = selectPermissions({
    table: t,
    layers,
    cwd,
    env,
    addDirs: (input.addDirs ?? []).map((d) => resolve(cwd, d)),
    ...(input.permissionProfile !== undefined ? { cliProfile: input.permissionProfile } : {}),
    ...(input.sandboxMode !== undefined ? { cliSandboxMode: input.sandboxMode } : {}),
    // As in the reference: a folder the user decided about (trusted or not) runs in its
    // workspace by default, one nobody decided about only reads.
    defaultMode: project.trustLevel !== null ? "workspace-write" : "read-only",
  });
  warnings.push(...permissions.warnings);

  const instructionsKey = str(t, "model_instructions_file") !== undefined ? "model_instructions_file" : "experimental_instructions_file";
  const instructionsFile = str(t, instructionsKey);
  const compactFile = str(t, "experimental_compact_prompt_file");
  const projectDocMaxBytes = num(t, "project_doc_max_bytes") ?? 0;
  const projectDocFallbackFilenames = strings(t.project_doc_fallback_filenames);
  const projectRootMarkers = strings(t.project_root_markers);
  const history = table(t.history);
  const notify = strings(t.notify);
  const maxBytes = num(history, "max_bytes");

  if (input.strict) refuseUnknownKeys(layers);
  const features = resolveFeatures(t);
  warnings.push(...featureWarnings(t, features));
  const webSearch = resolveWebSearch(t, provider.wireApi);
  warnings.push(...webSearch.warnings);
  const agentsMd = loadAgentsMd({
    codexHome: home,
    cwd,
    maxBytes: projectDocMaxBytes,
    fallbackFilenames: projectDocFallbackFilenames,
    rootMarkers: projectRootMarkers,
  });
  warnings.push(...agentsMd.warnings);
  const agents = loadAgentsSettings({ table: t, codexHome: home, trustedDotCodex: project.trustedDotCodex, warnings });
  return {
    codexHome: home,
    cwd,
    model: str(t, "model") ?? DEFAULT_MODEL,
    // Set by any layer but the built-in defaults (a ChatGPT login's account may pick the default instead).
    modelChosen: layers.slice(1).some((layer) => typeof layer.table.model === "string"),
    modelProviderId,
    provider,
    // An untrusted folder asks before anything not known to be safe.
    approvalPolicy: oneOf(t, "approval_policy", APPROVAL_POLICIES) ?? (project.trustLevel === "untrusted" ? "untrusted" : "on-request"),
    sandboxMode: permissions.sandboxMode,
    sandboxPolicy: permissions.sandboxPolicy,
    fileSystemRules: permissions.fileSystem,
    permissionProfile: permissions.profile,
    reasoningEffort: oneOf(t, "model_reasoning_effort", REASONING_EFFORTS) ?? null,
    planModeReasoningEffort: oneOf(t, "plan_mode_reasoning_effort", REASONING_EFFORTS) ?? null,
    reasoningSummary: oneOf(t, "model_reasoning_summary", REASONING_SUMMARIES) ?? null,
    verbosity: oneOf(t, "model_verbosity", ["low", "medium", "high"] as const) ?? null,
    developerInstructions: str(t, "developer_instructions") ?? null,
    baseInstructionsOverride: instructionsFile ? readText(instructionsFile, `${where([instructionsKey])}: ${instructionsKey}`) : null,
    userInstructions: agentsMd.text,
    shellEnvironmentPolicy: table(t.shell_environment_policy) as ShellEnvironmentPolicy,
    warnings,
    profile: choice?.name ?? null,
    features,
    notify: notify.length > 0 ? notify : null,
    history: {
      persistence: oneOf(history, "persistence", ["save-all", "none"] as const) ?? "save-all",
      ...(maxBytes !== undefined ? { max_bytes: maxBytes } : {}),
    },
    agents,
    mcpServers: mcpServersFromToml(t.mcp_servers, t),
    undo: undoSettings(table(t.ghost_snapshot)),
    hooks: {
      enabled: features.hooks !== false,
      sources: hookSources({
        // --ignore-user-config leaves out the user's layer, its hooks.json with it.
        codexHome: input.ignoreUserConfig ? null : home,
        user,
        userConfigFile: userFile,
        profileFile,
        trustedDotCodex: project.trustedDotCodex,
        projectLayers: project.layers,
        overrides,
      }),
      userConfigFile: userFile,
      stateOverrides: stateOverrides(overrides),
      bypassTrust: input.bypassHookTrust === true,
    },
    webSearch: webSearch.settings,
    otel: otelSettingsFrom(table(t.otel), env),
    projectDocMaxBytes,
    projectDocFallbackFilenames,
    projectRootMarkers,
    projectTrustLevel: project.trustLevel,
    undecidedTrustWarnings: project.undecidedTrustWarnings,
    configFiles: [...(user ? [user.name] : []), ...(profileFile ? [profileFile.name] : []), ...project.layers.map((l) => l.name)],
    rulesFolders: input.ignoreRules ? [] : [join(home, "rules"), ...project.trustedDotCodex.map((dir) => join(dir, "rules"))],
    reviewModel: str(t, "review_model") ?? null,
    modelContextWindow: num(t, "model_context_window") ?? null,
    modelAutoCompactTokenLimit: num(t, "model_auto_compact_token_limit") ?? null,
    toolOutputTokenLimit: num(t, "tool_output_token_limit") ?? null,
    modelSupportsReasoningSummaries: bool(t, "model_supports_reasoning_summaries") ?? null,
    showRawAgentReasoning: bool(t, "show_raw_agent_reasoning") ?? false,
    hideAgentReasoning: bool(t, "hide_agent_reasoning") ?? false,
    suppressUnstableFeaturesWarning: bool(t, "suppress_unstable_features_warning") ?? false,
    compactPrompt:
      str(t, "compact_prompt") ??
      (compactFile ? readText(compactFile, `${where(["experimental_compact_prompt_file"])}: experimental_compact_prompt_file`) : null),
    ossProvider: str(t, "oss_provider") ?? null,
    toml: t,
  };
}

/** `--strict-config`: what would have been unknown-key warnings, as one error naming each. */
function refuseUnknownKeys(layers: readonly Layer[]): void {
  const problems = new Set<string>();
  for (const layer of layers) {
    for (const problem of validateTable(layer.table).unknown) problems.add(`${layer.where(problem.path)}: ${problem.message.replace(" is ignored", "")}`);
  }
  if (problems.size > 0) throw new ConfigError(`${[...problems].join("\n")}\n(--strict-config refuses keys this version does not know)`);
}

/** `--model`, `--sandbox`, `--enable`, `--oss`, … as the top layer. */
function flagsLayer(input: CliConfigInput, below: TomlTable, belowLayers: Layer[]): Layer {
  const values: TomlTable = {};
  const labels = new Map<string, string>();
  const set = (path: string[], value: unknown, label: string): void => {
    let node = values;
    for (const part of path.slice(0, -1)) node = (isTable(node[part]) ? node[part] : (node[part] = {})) as TomlTable;
    node[path[path.length - 1] ?? ""] = value;
    labels.set(path.join("."), label);
  };
  if (input.oss) {
    const id = input.localProvider ?? str(below, "oss_provider") ?? DEFAULT_OSS_PROVIDER;
    if (!isOssProvider(id)) {
      const source = input.localProvider !== undefined ? `--local-provider ${id}` : `${whereSet(belowLayers, ["oss_provider"], "--oss")}: oss_provider`;
      throw new ConfigError(`${source}: '${id}' is not one of ${OSS_PROVIDERS.join(", ")}`);
    }
    const label = input.localProvider !== undefined ? `--oss --local-provider ${id}` : "--oss";
    set(["model_provider"], id, label);
    if (input.model === undefined) set(["model"], DEFAULT_OSS_MODELS[id], label);
  }
  if (input.model !== undefined) set(["model"], input.model, `--model ${input.model}`);
  if (input.sandboxMode !== undefined) set(["sandbox_mode"], input.sandboxMode, `--sandbox ${input.sandboxMode}`);
  if (input.approvalPolicy !== undefined) set(["approval_policy"], input.approvalPolicy, "the approval policy option");
  for (const [flag, names] of [["--enable", input.enable], ["--disable", input.disable]] as const) {
    // As in the reference, a flag typed on the command line must name a feature.
    const unknown = unknownFeatureFlags(names ?? [])[0];
    if (unknown !== undefined) throw new ConfigError(`${flag} ${unknown}: unknown feature flag '${unknown}'${didYouMean(unknown, FEATURE_NAMES)} (\`codex-ts features list\` names them all)`);
  }
  for (const name of input.enable ?? []) set(["features", name], true, `--enable ${name}`);
  for (const name of input.disable ?? []) set(["features", name], false, `--disable ${name}`);
  if (input.search) set(["web_search"], "live", "--search");
  return fixedLayer("command-line flags", values, (path) => labels.get(path.join(".")) ?? "command-line flags");
}

function providerFromToml(id: string, t: TomlTable): ModelProvider {
  const retries = (key: string, fallback: number): number => Math.min(MAX_RETRIES_CAP, Math.max(0, num(t, key) ?? fallback));
  return {
    id,
    name: str(t, "name") ?? id,
    baseUrl: str(t, "base_url") ?? OPENAI_DEFAULT_BASE_URL,
    envKey: str(t, "env_key") ?? null,
    envKeyInstructions: str(t, "env_key_instructions") ?? null,
    wireApi: oneOf(t, "wire_api", ["responses", "chat"] as const) ?? "responses",
    queryParams: stringMap(t.query_params),
    httpHeaders: stringMap(t.http_headers),
    envHttpHeaders: stringMap(t.env_http_headers),
    requestMaxRetries: retries("request_max_retries", DEFAULT_REQUEST_MAX_RETRIES),
    streamMaxRetries: retries("stream_max_retries", DEFAULT_STREAM_MAX_RETRIES),
    streamIdleTimeoutMs: num(t, "stream_idle_timeout_ms") ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS,
  };
}

function readText(path: string, what: string): string {
  try {
    return readTextFile(path);
  } catch (err) {
    throw new ConfigError(`${what}: cannot read ${path}: ${errorMessage(err)}`);
  }
}

/**
 * `[ghost_snapshot]`: the reference's limits (a number of 0 or less turns that limit off, as
 * there; unset: undo's defaults) and codex-ts's `enabled`.
 */
export interface UndoSettings {
  enabled: boolean;
  /** Untracked files above this many bytes are left out of snapshots; null: the default (10 MiB). */
  largeFileBytes: number | null;
  /** Untracked folders with this many files are left out; null: the default (200). */
  largeDirFiles: number | null;
  /** Say nothing about what snapshots leave out. */
  disableWarnings: boolean;
}

function undoSettings(t: TomlTable): UndoSettings {
  const limit = (key: string): number | null => {
    const n = num(t, key);
    return n === undefined ? null : Math.max(0, n);
  };
  return {
    enabled: bool(t, "enabled") ?? true,
    largeFileBytes: limit("ignore_large_untracked_files"),
    largeDirFiles: limit("ignore_large_untracked_dirs"),
    disableWarnings: bool(t, "disable_warnings") ?? false,
  };
}

// Readers for the merged table. Every layer was validated, so these only narrow the types.

function table(value: unknown): TomlTable {
  return isTable(value) ? value : {};
}

function str(t: TomlTable, key: string): string | undefined {
  const value = t[key];
  return typeof value === "string" ? value : undefined;
}

function num(t: TomlTable, key: string): number | undefined {
  const value = t[key];
  return typeof value === "number" ? value : undefined;
}

function bool(t: TomlTable, key: string): boolean | undefined {
  const value = t[key];
  return typeof value === "boolean" ? value : undefined;
}

function oneOf<T extends string>(t: TomlTable, key: string, allowed: readonly T[]): T | undefined {
  const value = t[key];
  return typeof value === "string" && (allowed as readonly string[]).includes(value) ? (value as T) : undefined;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function stringMap(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(table(value))) if (typeof v === "string") out[k] = v;
  return out;
}
