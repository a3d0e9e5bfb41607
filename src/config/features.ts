/**
 * Feature flags: the `[features]` table of config.toml (`undo = true`), `--enable NAME` /
 * `--disable NAME`, and inside a profile `[profiles.<name>.features]`. Names, stages and
 * defaults follow the reference's feature registry; older names it still accepts map onto the
 * current ones. Unknown names draw a warning (see schema.ts) and are left out of the result.
 */
import type { TomlTable } from "./overrides.js";

export type FeatureStage = "stable" | "experimental" | "under-development" | "deprecated" | "removed";

export interface FeatureSpec {
  readonly key: string;
  readonly stage: FeatureStage;
  readonly default: boolean;
  readonly description: string;
}

export const FEATURES: readonly FeatureSpec[] = [
  { key: "undo", stage: "stable", default: false, description: "snapshot the worktree each turn so a turn can be undone" },
  { key: "shell_tool", stage: "stable", default: true, description: "offer the model the shell tool" },
  { key: "unified_exec", stage: "stable", default: true, description: "PTY-backed `exec_command` / `write_stdin` tools" },
  { key: "shell_snapshot", stage: "stable", default: true, description: "run your shell's start-up files once per session, in the background, and start each login-shell command (`bash -lc`, `zsh -lc`) from a snapshot of what they set up (`$CODEX_HOME/shell_snapshots/`) instead of re-running them; off: a login shell per command" },
  { key: "exec_policy", stage: "stable", default: true, description: "apply `.rules` exec policies to commands" },
  { key: "use_legacy_landlock", stage: "stable", default: false, description: "use the Landlock Linux sandbox instead of bubblewrap" },
  { key: "enable_request_compression", stage: "stable", default: true, description: "compress request bodies (zstd) to the ChatGPT backend" },
  { key: "multi_agent", stage: "stable", default: true, description: "sub-agent (collaboration) tools" },
  { key: "skill_mcp_dependency_install", stage: "stable", default: true, description: "offer to install MCP servers a skill needs" },
  { key: "personality", stage: "stable", default: true, description: "personality selection" },
  { key: "fast_mode", stage: "stable", default: true, description: "Fast mode (service tier) selection" },
  { key: "hooks", stage: "stable", default: true, description: "lifecycle hooks from hooks.json and `[hooks]` (see docs/hooks.md)" },
  { key: "remote_compaction", stage: "stable", default: true, description: "compact history with the Responses API's compaction endpoint (built-in OpenAI provider)" },
  { key: "js_repl", stage: "experimental", default: false, description: "a persistent Node-backed JavaScript REPL tool" },
  { key: "apps", stage: "experimental", default: false, description: "ChatGPT apps (connectors) through `$` mentions" },
  { key: "smart_approvals", stage: "experimental", default: false, description: "route approval prompts to a reviewer sub-agent" },
  { key: "tui_app_server", stage: "experimental", default: false, description: "run the TUI on top of the app-server" },
  { key: "prevent_idle_sleep", stage: "experimental", default: false, description: "keep the machine awake while a turn runs" },
  { key: "shell_zsh_fork", stage: "under-development", default: false, description: "run shell commands through a zsh exec bridge" },
  { key: "code_mode", stage: "under-development", default: false, description: "minimal JavaScript code mode" },
  { key: "code_mode_only", stage: "under-development", default: false, description: "expose only the code-mode tools" },
  { key: "code_mode_host", stage: "under-development", default: false, description: "host code mode" },
  { key: "js_repl_tools_only", stage: "under-development", default: false, description: "expose only the js_repl tools" },
  { key: "codex_git_commit", stage: "under-development", default: false, description: "git commit attribution guidance" },
  { key: "runtime_metrics", stage: "under-development", default: false, description: "runtime metrics snapshots" },
  { key: "memories", stage: "under-development", default: false, description: "memory extraction and consolidation" },
  { key: "child_agents_md", stage: "under-development", default: false, description: "extra AGENTS.md guidance in user instructions" },
  { key: "image_detail_original", stage: "under-development", default: false, description: "allow `detail: \"original\"` image outputs" },
  { key: "apply_patch_freeform", stage: "under-development", default: false, description: "the freeform (grammar) apply_patch tool" },
  { key: "exec_permission_approvals", stage: "under-development", default: false, description: "let exec tools ask for more permissions" },
  { key: "request_permissions_tool", stage: "under-development", default: false, description: "the request_permissions tool" },
  { key: "powershell_utf8", stage: "under-development", default: false, description: "force UTF-8 output in PowerShell" },
  { key: "enable_fanout", stage: "under-development", default: false, description: "CSV-backed agent job tools" },
  { key: "tool_suggest", stage: "under-development", default: false, description: "suggest installable tools" },
  { key: "plugins", stage: "under-development", default: false, description: "plugins" },
  { key: "image_generation", stage: "under-development", default: false, description: "the image generation tool" },
  { key: "apps_mcp_gateway", stage: "under-development", default: false, description: "route apps MCP calls through the gateway" },
  { key: "skill_env_var_dependency_prompt", stage: "under-development", default: false, description: "prompt for environment variables a skill needs" },
  { key: "default_mode_request_user_input", stage: "under-development", default: false, description: "request_user_input in Default mode" },
  { key: "tool_call_mcp_elicitation", stage: "under-development", default: false, description: "MCP tool approvals as elicitations" },
  { key: "artifact", stage: "under-development", default: false, description: "native artifact tools" },
  { key: "voice_transcription", stage: "under-development", default: false, description: "voice transcription in the composer" },
  { key: "realtime_conversation", stage: "under-development", default: false, description: "realtime voice conversation" },
  { key: "network_proxy", stage: "under-development", default: false, description: "managed network proxy with domain allowlists" },
  { key: "responses_websockets", stage: "under-development", default: false, description: "Responses API over WebSocket" },
  { key: "responses_websockets_v2", stage: "under-development", default: false, description: "Responses API WebSocket v2" },
  { key: "web_search_request", stage: "deprecated", default: false, description: "live web search when `web_search` is unset; use `web_search = \"live\"`" },
  { key: "web_search_cached", stage: "deprecated", default: false, description: "cached web search when `web_search` is unset (wins over `web_search_request`); use `web_search = \"cached\"`" },
  { key: "search_tool", stage: "removed", default: false, description: "no effect" },
  { key: "sqlite", stage: "removed", default: true, description: "no effect" },
  { key: "use_linux_sandbox_bwrap", stage: "removed", default: false, description: "no effect (bubblewrap is the default)" },
  { key: "request_rule", stage: "removed", default: false, description: "no effect" },
  { key: "experimental_windows_sandbox", stage: "removed", default: false, description: "no effect" },
  { key: "elevated_windows_sandbox", stage: "removed", default: false, description: "no effect" },
  { key: "remote_models", stage: "removed", default: false, description: "no effect" },
  { key: "steer", stage: "removed", default: true, description: "no effect (always on)" },
  { key: "collaboration_modes", stage: "removed", default: true, description: "no effect (always on)" },
  { key: "view_image_tool", stage: "removed", default: true, description: "no effect (always on)" },
  { key: "rmcp_client", stage: "removed", default: true, description: "no effect" },
  { key: "tui2", stage: "removed", default: false, description: "no effect" },
];

/** Older names the reference still accepts, and the feature each one sets. */
export const FEATURE_ALIASES: Readonly<Record<string, string>> = {
  connectors: "apps",
  codex_hooks: "hooks",
  collab: "multi_agent",
  memory_tool: "memories",
  ghost_commit: "undo",
  guardian_approval: "smart_approvals",
  web_search: "web_search_request",
  include_apply_patch_tool: "apply_patch_freeform",
  experimental_use_freeform_apply_patch: "apply_patch_freeform",
  experimental_use_unified_exec_tool: "unified_exec",
  enable_experimental_windows_sandbox: "experimental_windows_sandbox",
};

/**
 * The features codex-ts acts on. The others are accepted so the reference's config loads, are
 * marked "not used yet" in docs/config.md, and setting one away from its default draws a warning.
 */
export const HONOURED_FEATURES: ReadonlySet<string> = new Set([
  "exec_policy",
  "unified_exec",
  "shell_tool",
  "apply_patch_freeform",
  "remote_compaction",
  "shell_snapshot",
  "hooks",
  // Deprecated, but still read (with a note) when no top-level `web_search` is set: see web-search.ts.
  "web_search_request",
  "web_search_cached",
]);

/** Whether turning `key` on or off changes anything (removed features are accepted as no-ops). */
export function isHonoured(key: string): boolean {
  const spec = FEATURES.find((f) => f.key === key);
  return spec !== undefined && (spec.stage === "removed" || HONOURED_FEATURES.has(key));
}

/**
 * What to tell the user about the flags they set: ones codex-ts does not act on yet, and (unless
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
    if (!isHonoured(spec.key)) warnings.push(`features.${spec.key} is accepted, but codex-ts does not act on it yet`);
    else if (spec.stage === "under-development" && resolved[spec.key] && !suppressUnstable) {
      warnings.push(`features.${spec.key} is under development and may change or go away (suppress_unstable_features_warning = true hides this)`);
    }
  }
  return warnings;
}

/** Every name accepted in `[features]` and by `--enable` / `--disable`. */
export const FEATURE_NAMES: readonly string[] = [...FEATURES.map((f) => f.key), ...Object.keys(FEATURE_ALIASES)];

/** Top-level keys from before `[features]` that still toggle a feature. */
const LEGACY_TOGGLES = ["include_apply_patch_tool", "experimental_use_freeform_apply_patch", "experimental_use_unified_exec_tool"];

export function canonicalFeature(name: string): string | null {
  if (FEATURES.some((f) => f.key === name)) return name;
  return FEATURE_ALIASES[name] ?? null;
}

/**
 * The effective flags from a merged config table (profile already folded in): defaults, then
 * the legacy top-level toggles, then `[features]` entries. Unknown names are skipped.
 */
export function resolveFeatures(table: TomlTable): Record<string, boolean> {
  const resolved: Record<string, boolean> = {};
  for (const f of FEATURES) resolved[f.key] = f.default;
  const set = (name: string, value: unknown): void => {
    const key = canonicalFeature(name);
    if (key !== null && typeof value === "boolean") resolved[key] = value;
  };
  for (const name of LEGACY_TOGGLES) set(name, table[name]);
  const features = table.features;
  if (features && typeof features === "object" && !Array.isArray(features)) {
    for (const [name, value] of Object.entries(features)) set(name, value);
  }
  return resolved;
}
