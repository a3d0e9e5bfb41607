/**
 * Feature flags: the `[features]` table of config.toml (`goals = false`), `--enable NAME` /
 * `--disable NAME`, and inside a profile `[profiles.<name>.features]`. Names, stages and
 * defaults are the reference's (feature-registry.ts); older names it still accepts map onto the
 * current ones. In a config file an unknown name draws a warning (see schema.ts) and is left out;
 * on the command line it is an error (see `unknownFeatureFlags`).
 */
import { REFERENCE_FEATURE_ENTRIES } from "./feature-registry.js";
import type { TomlTable } from "./overrides.js";

export type FeatureStage = "stable" | "experimental" | "under development" | "deprecated" | "removed";

export interface FeatureSpec {
  readonly key: string;
  readonly stage: FeatureStage;
  readonly default: boolean;
  /** A removed feature whose value the reference keeps whatever the config says. */
  readonly pinned: boolean;
  /** What it does in codex-ts; absent for the reference's features codex-ts has no use for. */
  readonly description?: string;
}

const STAGES = { S: "stable", E: "experimental", D: "under development", X: "deprecated", R: "removed" } as const;

/** What the features codex-ts acts on do here. */
const DESCRIPTIONS: Readonly<Record<string, string>> = {
  shell_tool: "offer the model a command tool at all",
  unified_exec: "long-lived `exec_command` / `write_stdin` sessions for the families that use them; off: the one-shot `shell_command`",
  shell_snapshot:
    "run your shell's start-up files once per session, in the background, and start each login-shell command (`bash -lc`, `zsh -lc`) from a snapshot of what they set up (`$CODEX_HOME/shell_snapshots/`) instead of re-running them; off: a login shell per command",
  goals: "the goal tools (`get_goal`, `create_goal`, `update_goal`), `/goal`, and turns that continue on their own while a goal is active",
  web_search_request: "live web search when `web_search` is unset; use `web_search = \"live\"`",
  web_search_cached: "cached web search when `web_search` is unset (wins over `web_search_request`); use `web_search = \"cached\"`",
  collaboration_modes: "plan mode (`/plan`, Shift+Tab); always on",
  hooks: "lifecycle hooks from hooks.json and `[hooks]` beside each config layer (see docs/hooks.md)",
};

/** codex-ts's own flags, which the reference does not have. */
const CODEX_TS_FEATURES: readonly FeatureSpec[] = [
  { key: "exec_policy", stage: "stable", default: true, pinned: false, description: "apply `.rules` command rules (`--ignore-rules` skips the rule files for one run)" },
  { key: "remote_compaction", stage: "stable", default: true, pinned: false, description: "compact history with the Responses API's compaction endpoint (built-in OpenAI provider)" },
];

export const FEATURES: readonly FeatureSpec[] = [
  ...REFERENCE_FEATURE_ENTRIES.map(([key, stage, fallback, pinned]): FeatureSpec => {
    const description = DESCRIPTIONS[key];
    return { key, stage: STAGES[stage], default: fallback, pinned: pinned === true, ...(description !== undefined ? { description } : {}) };
  }),
  ...CODEX_TS_FEATURES,
].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

const BY_KEY: ReadonlyMap<string, FeatureSpec> = new Map(FEATURES.map((f) => [f.key, f]));

/** Older names the reference still accepts, and the feature each one sets. */
export const FEATURE_ALIASES: Readonly<Record<string, string>> = {
  connectors: "apps",
  collab: "multi_agent",
  memory_tool: "memories",
  codex_hooks: "hooks",
  web_search: "web_search_request",
  experimental_use_unified_exec_tool: "unified_exec",
  enable_experimental_windows_sandbox: "experimental_windows_sandbox",
};

/** The features codex-ts acts on; the others are accepted so the reference's config loads. */
export const HONOURED_FEATURES: ReadonlySet<string> = new Set([
  "exec_policy",
  "unified_exec",
  "shell_tool",
  "remote_compaction",
  "shell_snapshot",
  "goals",
  "collaboration_modes",
  "hooks",
  // Deprecated, but still read (with a note) when no top-level `web_search` is set: see web-search.ts.
  "web_search_request",
  "web_search_cached",
]);

/** Whether turning `key` on or off changes anything (removed features are accepted as no-ops). */
export function isHonoured(key: string): boolean {
  const spec = BY_KEY.get(key);
  return spec !== undefined && (spec.stage === "removed" || HONOURED_FEATURES.has(key));
}

/**
 * What to tell the user about the flags they set: ones codex-ts does not act on, and (unless
 * `suppress_unstable_features_warning`) ones still under development.
 */
export function featureWarnings(table: TomlTable, resolved: Readonly<Record<string, boolean>>): string[] {
  const warnings: string[] = [];
  const features = table.features;
  const named = new Set<string>(LEGACY_TOGGLES.filter((n) => typeof table[n] === "boolean").map((n) => canonicalFeature(n) ?? n));
  if (features && typeof features === "object" && !Array.isArray(features)) {
    for (const name of Object.keys(features)) named.add(canonicalFeature(name) ?? name);
  }
  const suppressUnstable = table.suppress_unstable_features_warning === true;
  for (const spec of FEATURES) {
    if (!named.has(spec.key) || resolved[spec.key] === spec.default) continue;
    if (!isHonoured(spec.key)) warnings.push(`features.${spec.key} is accepted, but codex-ts does not act on it`);
    else if (spec.stage === "under development" && resolved[spec.key] && !suppressUnstable) {
      warnings.push(`features.${spec.key} is under development and may change or go away (suppress_unstable_features_warning = true hides this)`);
    }
  }
  return warnings;
}

/** Every name accepted in `[features]` and by `--enable` / `--disable`. */
export const FEATURE_NAMES: readonly string[] = [...FEATURES.map((f) => f.key), ...Object.keys(FEATURE_ALIASES)];

/** Top-level keys from before `[features]` that still toggle a feature. */
const LEGACY_TOGGLES = ["experimental_use_unified_exec_tool"];

export function canonicalFeature(name: string): string | null {
  if (BY_KEY.has(name)) return name;
  return FEATURE_ALIASES[name] ?? null;
}

/** The names among `names` that are not features, for `--enable` / `--disable` (an error there). */
export function unknownFeatureFlags(names: readonly string[]): string[] {
  return names.filter((name) => canonicalFeature(name) === null);
}

/**
 * The effective flags from a merged config table (profile already folded in): defaults, then
 * the legacy top-level toggles, then `[features]` entries. Unknown names are skipped, and a
 * pinned feature keeps its value.
 */
export function resolveFeatures(table: TomlTable): Record<string, boolean> {
  const resolved: Record<string, boolean> = {};
  for (const f of FEATURES) resolved[f.key] = f.default;
  const set = (name: string, value: unknown): void => {
    const key = canonicalFeature(name);
    if (key !== null && typeof value === "boolean" && BY_KEY.get(key)?.pinned !== true) resolved[key] = value;
  };
  for (const name of LEGACY_TOGGLES) set(name, table[name]);
  const features = table.features;
  if (features && typeof features === "object" && !Array.isArray(features)) {
    for (const [name, value] of Object.entries(features)) set(name, value);
  }
  return resolved;
}
