/**
 * The config.toml schema: one declarative table of every key codex-ts knows, with the
 * reference's names, types, allowed values and defaults. The same table validates each config
 * layer (wrong type or value: error; unknown key: warning), supplies the built-in defaults layer,
 * resolves relative paths, and generates docs/config.md (see docs.ts).
 *
 * A key path is dotted; a segment in angle brackets (`<id>`, `<name>`) stands for a name the
 * user picks, such as a provider id or an MCP server name.
 */
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { APPROVAL_POLICIES, REASONING_EFFORTS, REASONING_SUMMARIES, SANDBOX_MODES } from "../protocol/policy.js";
import { WEB_SEARCH_MODES } from "../protocol/web-search.js";
import {
  DEFAULT_REQUEST_MAX_RETRIES,
  DEFAULT_STREAM_IDLE_TIMEOUT_MS,
  DEFAULT_STREAM_MAX_RETRIES,
  OPENAI_DEFAULT_BASE_URL,
} from "../model/provider.js";
import { DEFAULT_PROJECT_DOC_MAX_BYTES } from "./agents-md.js";
import { FEATURE_NAMES } from "./features.js";
import { DEFAULT_MCP_STARTUP_TIMEOUT_SEC, DEFAULT_MCP_TOOL_TIMEOUT_SEC, shapeProblem } from "./mcp.js";
import { OSS_PROVIDERS } from "./oss.js";
import { NETWORK_TABLE_KEYS, filesystemProblem, networkProblem } from "./permissions-toml.js";
import { exporterProblem } from "../telemetry/settings.js";
import { didYouMean } from "../util/nearest.js";
import type { TomlTable } from "./overrides.js";

export const DEFAULT_MODEL = "gpt-5.5";
export const DEFAULT_AGENT_MAX_THREADS = 6;
export const DEFAULT_AGENT_MAX_DEPTH = 1;

/**
 * `path` is a string resolved against the folder of the file that sets it (CODEX_HOME for the
 * user's config.toml, the `.codex` folder for a project's, the working directory for `-c`);
 * `table` has the keys listed beneath it; `map` has names the user picks, described by its
 * `<name>` child; `any` is accepted without looking inside.
 */
export type ValueKind = "string" | "path" | "integer" | "number" | "boolean" | "string[]" | "path[]" | "table" | "map" | "any";

export type Group =
  | "Model"
  | "Model providers"
  | "Sandbox and approvals"
  | "Shell environment"
  | "Instructions and AGENTS.md"
  | "Features"
  | "MCP servers"
  | "Profiles"
  | "Projects"
  | "History and notifications"
  | "Interface"
  | "Authentication"
  | "Sub-agents"
  | "Other";

export type TomlLiteral = string | number | boolean | readonly string[];

export interface KeySpec {
  readonly key: string;
  readonly type: ValueKind | readonly ValueKind[];
  /** For strings: the only values allowed. */
  readonly values?: readonly string[];
  /** The built-in value (part of the defaults layer unless the key is under a `<name>`). */
  readonly default?: TomlLiteral;
  /** For the docs, when the default is computed rather than a fixed value. */
  readonly defaultText?: string;
  readonly description: string;
  /** A config.toml line or two showing the key in use. */
  readonly example?: string;
  readonly min?: number;
  readonly max?: number;
  /** For a `map`: the names the reference defines; other names draw a warning. */
  readonly names?: readonly string[];
  /**
   * For an `any` table: the keys the reference reads in it. Other keys pass unchecked (a newer
   * reference may add some), but one spelled nearly like a known key draws a warning naming it.
   */
  readonly knownKeys?: readonly string[];
  /** Checks the whole value once its type is right; returns what is wrong, or null. */
  readonly check?: (value: unknown) => string | null;
  /** May also be set in a `[profiles.<name>]` table (top-level keys only; covers the subtree). */
  readonly profile?: boolean;
  /** Ignored in a project's `.codex/config.toml` (it could redirect credentials or run programs). */
  readonly userOnly?: boolean;
  /** Accepted so the reference's config.toml loads unchanged, but codex-ts does nothing with it yet. */
  readonly unused?: boolean;
  readonly group: Group;
}

const effort = [...REASONING_EFFORTS];

/** The keys of the reference's `[tui]` table (v0.169), for near-miss warnings only. */
const TUI_KEYS = [
  "notifications", "notification_method", "notification_condition", "animations", "alternate_screen", "show_tooltips",
  "show_server_version_notice", "status_line", "status_line_use_colors", "terminal_title", "theme", "keymap", "presets",
  "experimental_mode", "screen_reader_detection_done", "effects", "rendering", "auto_recap", "disable_paste_burst",
  "question_esc_back", "raw_output_mode", "fullscreen_transcript", "collapse_turn_details", "sidebar_width_percent",
  "mouse_scroll_speed", "copy_on_select", "copy_on_select_clear_selection", "right_click_paste", "pet", "pet_anchor",
  "session_picker_view", "agents_overview_grouping", "resume_cwd", "model_availability_nux", "terminal_resize_reflow_max_rows",
];

const BASE_SCHEMA: readonly KeySpec[] = [
  // Model
  { key: "model", type: "string", default: DEFAULT_MODEL, profile: true, group: "Model", description: "The model to use.", example: 'model = "gpt-5.5"' },
  { key: "review_model", type: "string", group: "Model", description: "Model reviews run with (`/review`, `codex-ts review`, `exec review`); the session's model when unset." },
  { key: "model_provider", type: "string", default: "openai", profile: true, userOnly: true, group: "Model", description: "Id of the provider to use: `openai`, `ollama`, `lmstudio` or a `[model_providers.<id>]` table.", example: 'model_provider = "azure"' },
  { key: "oss_provider", type: "string", values: OSS_PROVIDERS, defaultText: '"ollama" (used by `--oss`)', profile: true, group: "Model", description: "The local provider `--oss` uses." },
  { key: "openai_base_url", type: "string", defaultText: `$OPENAI_BASE_URL, else "${OPENAI_DEFAULT_BASE_URL}"`, userOnly: true, group: "Model", description: "Base URL of the built-in `openai` provider." },
  { key: "model_context_window", type: "integer", min: 1, group: "Model", description: "Context window of the model, in tokens; replaces the catalog's (compaction starts at 90% of it)." },
  { key: "model_auto_compact_token_limit", type: "integer", min: 1, group: "Model", description: "Token count at which the conversation is compacted automatically (at most 90% of the context window)." },
  { key: "tool_output_token_limit", type: "integer", min: 0, group: "Model", description: "Token budget for each tool output kept in the conversation." },
  { key: "model_reasoning_effort", type: "string", values: effort, profile: true, defaultText: "the model's default", group: "Model", description: "Reasoning effort sent to reasoning models.", example: 'model_reasoning_effort = "high"' },
  { key: "plan_mode_reasoning_effort", type: "string", values: effort, profile: true, defaultText: "`model_reasoning_effort`", group: "Model", description: "Reasoning effort while in plan mode (`/plan`, Shift+Tab in the interactive UI)." },
  { key: "model_reasoning_summary", type: "string", values: REASONING_SUMMARIES, profile: true, defaultText: "left to the model", group: "Model", description: "Reasoning summary requested from reasoning models." },
  { key: "model_reasoning_summary_format", type: "string", values: ["none", "experimental"], unused: true, group: "Model", description: "Format of reasoning summaries." },
  { key: "model_verbosity", type: "string", values: ["low", "medium", "high"], profile: true, defaultText: "the model's default", group: "Model", description: "Output verbosity of GPT-5 models (Responses `text.verbosity`)." },
  { key: "model_supports_reasoning_summaries", type: "boolean", group: "Model", description: "Send reasoning settings even to a model the catalog does not list as a reasoning model." },
  { key: "personality", type: "string", values: ["none", "friendly", "pragmatic"], profile: true, unused: true, group: "Model", description: "Personality of the model's replies." },
  { key: "service_tier", type: "string", unused: true, group: "Model", description: "Service tier requested for turns (`default`, `priority`, `flex`)." },
  { key: "model_catalog_json", type: "path", unused: true, group: "Model", description: "Path of a JSON model catalog to use instead of the built-in one." },
  { key: "show_raw_agent_reasoning", type: "boolean", default: false, group: "Model", description: "Show the model's raw reasoning text when the provider sends it." },
  { key: "hide_agent_reasoning", type: "boolean", default: false, group: "Model", description: "Hide reasoning events from the output." },

  // Model providers
  { key: "model_providers", type: "map", userOnly: true, group: "Model providers", description: "Extra model providers, by id. The built-in ids `openai`, `ollama` and `lmstudio` cannot be redefined." },
  { key: "model_providers.<id>", type: "table", group: "Model providers", description: "One provider.", example: '[model_providers.azure]\nname = "Azure"\nbase_url = "https://example.openai.azure.com/openai"\nenv_key = "AZURE_OPENAI_API_KEY"\nquery_params = { api-version = "2025-04-01-preview" }' },
  { key: "model_providers.<id>.name", type: "string", defaultText: "the id", group: "Model providers", description: "Display name." },
  { key: "model_providers.<id>.base_url", type: "string", defaultText: `"${OPENAI_DEFAULT_BASE_URL}"`, group: "Model providers", description: "Base URL of the provider's OpenAI-compatible API." },
  { key: "model_providers.<id>.env_key", type: "string", group: "Model providers", description: "Environment variable holding the API key; no key is sent when unset." },
  { key: "model_providers.<id>.env_key_instructions", type: "string", group: "Model providers", description: "Shown when the `env_key` variable is missing." },
  { key: "model_providers.<id>.experimental_bearer_token", type: "string", unused: true, group: "Model providers", description: "A literal bearer token (prefer `env_key`)." },
  { key: "model_providers.<id>.wire_api", type: "string", values: ["responses", "chat"], default: "responses", group: "Model providers", description: "API the provider speaks: the Responses API or Chat Completions." },
  { key: "model_providers.<id>.query_params", type: "map", group: "Model providers", description: "Query parameters added to every request (Azure's `api-version`)." },
  { key: "model_providers.<id>.query_params.<param>", type: "string", group: "Model providers", description: "One query parameter." },
  { key: "model_providers.<id>.http_headers", type: "map", group: "Model providers", description: "Headers sent with every request." },
  { key: "model_providers.<id>.http_headers.<header>", type: "string", group: "Model providers", description: "One header value." },
  { key: "model_providers.<id>.env_http_headers", type: "map", group: "Model providers", description: "Headers whose values come from environment variables (header → variable); skipped when the variable is unset." },
  { key: "model_providers.<id>.env_http_headers.<header>", type: "string", group: "Model providers", description: "Name of the variable holding the header's value." },
  { key: "model_providers.<id>.request_max_retries", type: "integer", min: 0, default: DEFAULT_REQUEST_MAX_RETRIES, group: "Model providers", description: "Retries of a failed request before its stream starts (capped at 100). With stream_max_retries, one sequence of at most the larger of the two." },
  { key: "model_providers.<id>.stream_max_retries", type: "integer", min: 0, default: DEFAULT_STREAM_MAX_RETRIES, group: "Model providers", description: "Reconnections of a dropped response stream (capped at 100). With request_max_retries, one sequence of at most the larger of the two." },
  { key: "model_providers.<id>.stream_idle_timeout_ms", type: "integer", min: 1, default: DEFAULT_STREAM_IDLE_TIMEOUT_MS, group: "Model providers", description: "Milliseconds without stream activity before the stream counts as lost." },
  { key: "model_providers.<id>.requires_openai_auth", type: "boolean", default: false, unused: true, group: "Model providers", description: "Use the OpenAI login (auth.json) for this provider." },
  { key: "model_providers.<id>.supports_websockets", type: "boolean", default: false, unused: true, group: "Model providers", description: "The provider accepts the Responses API over WebSocket." },

  // Sandbox and approvals
  { key: "approval_policy", type: "string", values: APPROVAL_POLICIES, profile: true, group: "Sandbox and approvals", description: "When to ask before running a command (`exec` always uses `never`). Unset: `on-request`, or `untrusted` in a folder you chose not to trust.", example: 'approval_policy = "untrusted"' },
  { key: "sandbox_mode", type: "string", values: SANDBOX_MODES, profile: true, group: "Sandbox and approvals", description: "What commands the model runs may touch. Unset: `read-only`, or `workspace-write` in a folder you trusted or chose not to trust (`[projects.\"<path>\"] trust_level`).", example: 'sandbox_mode = "workspace-write"' },
  { key: "sandbox_workspace_write", type: "table", group: "Sandbox and approvals", description: "Settings for `sandbox_mode = \"workspace-write\"`." },
  { key: "sandbox_workspace_write.writable_roots", type: "path[]", default: [], group: "Sandbox and approvals", description: "More writable folders besides the working directory.", example: '[sandbox_workspace_write]\nwritable_roots = ["/home/me/.cache/pip"]' },
  { key: "sandbox_workspace_write.network_access", type: "boolean", default: false, group: "Sandbox and approvals", description: "Allow network access inside the sandbox." },
  { key: "sandbox_workspace_write.exclude_tmpdir_env_var", type: "boolean", default: false, group: "Sandbox and approvals", description: "Do not make `$TMPDIR` writable." },
  { key: "sandbox_workspace_write.exclude_slash_tmp", type: "boolean", default: false, group: "Sandbox and approvals", description: "Do not make `/tmp` writable." },
  { key: "default_permissions", type: "string", profile: true, group: "Sandbox and approvals", description: "The permission profile commands run under: a `[permissions.<name>]` table or a built-in (`:read-only`, `:workspace`, `:danger-full-access`). Not used when `sandbox_mode` is set anywhere (a warning says so); `-P NAME` overrides both. See docs/sandbox.md.", example: 'default_permissions = "locked"' },
  { key: "permissions", type: "map", group: "Sandbox and approvals", description: "Named permission profiles (names starting with `:` are kept for the built-ins)." },
  { key: "permissions.<name>", type: "table", group: "Sandbox and approvals", description: "One profile: what commands may read and write, and whether they reach the network.", example: '[permissions.locked]\nextends = ":workspace"\n[permissions.locked.filesystem]\n":project_roots" = { "secrets/**" = "none", "**/.env" = "none" }\n"~/.aws" = "none"' },
  { key: "permissions.<name>.description", type: "string", group: "Sandbox and approvals", description: "What the profile is for." },
  { key: "permissions.<name>.extends", type: "string", group: "Sandbox and approvals", description: "A profile (or built-in) whose entries this one starts from; its own keys win." },
  { key: "permissions.<name>.workspace_roots", type: "map", group: "Sandbox and approvals", description: "More project roots for `:project_roots` entries, besides the working directory." },
  { key: "permissions.<name>.workspace_roots.<path>", type: "boolean", group: "Sandbox and approvals", description: "true adds the folder." },
  { key: "permissions.<name>.filesystem", type: "any", check: filesystemProblem, group: "Sandbox and approvals", description: "Paths (absolute, `~/…`, or `:root`, `:project_roots`, `:tmpdir`, `:slash_tmp`) mapped to `\"read\"`, `\"write\"` or `\"none\"`, or to a table of relative paths and globs below them; `glob_scan_max_depth` caps how deep deny globs are searched." },
  { key: "permissions.<name>.network", type: "any", check: networkProblem, knownKeys: NETWORK_TABLE_KEYS, group: "Sandbox and approvals", description: "`enabled = true` lets commands reach the network (off by default); the reference's proxy and domain keys are accepted but not enforced." },

  // Shell environment
  { key: "shell_environment_policy", type: "table", group: "Shell environment", description: "The environment of the commands the model runs." },
  { key: "shell_environment_policy.inherit", type: "string", values: ["all", "core", "none"], default: "all", group: "Shell environment", description: "Starting set: every variable, a core set (PATH, HOME, …), or none." },
  { key: "shell_environment_policy.ignore_default_excludes", type: "boolean", default: false, group: "Shell environment", description: "Keep variables whose names contain KEY, SECRET or TOKEN (dropped by default)." },
  { key: "shell_environment_policy.exclude", type: "string[]", default: [], group: "Shell environment", description: "Case-insensitive globs of names to drop.", example: 'exclude = ["AWS_*"]' },
  { key: "shell_environment_policy.include_only", type: "string[]", default: [], group: "Shell environment", description: "When not empty, keep only names matching these globs." },
  { key: "shell_environment_policy.set", type: "map", group: "Shell environment", description: "Variables to set. With the `shell_snapshot` feature on they also win over what your shell's start-up files export." },
  { key: "shell_environment_policy.set.<VAR>", type: "string", group: "Shell environment", description: "Value of one variable.", example: "set = { CI = \"1\" }" },
  { key: "shell_environment_policy.experimental_use_profile", type: "boolean", unused: true, group: "Shell environment", description: "Run commands through the user's shell profile." },

  // Instructions and AGENTS.md
  { key: "instructions", type: "string", group: "Instructions and AGENTS.md", description: "Ignored, as in the reference; use `developer_instructions` or AGENTS.md." },
  { key: "developer_instructions", type: "string", group: "Instructions and AGENTS.md", description: "Extra instructions sent as a developer message." },
  { key: "model_instructions_file", type: "path", profile: true, group: "Instructions and AGENTS.md", description: "File whose text replaces the built-in base instructions." },
  { key: "experimental_instructions_file", type: "path", profile: true, group: "Instructions and AGENTS.md", description: "Older name of `model_instructions_file`." },
  { key: "compact_prompt", type: "string", group: "Instructions and AGENTS.md", description: "What a local compaction asks the model for, instead of codex-ts's own summary prompt (server-side compaction sends no prompt). Also the MCP server's `compact-prompt` argument." },
  { key: "experimental_compact_prompt_file", type: "path", profile: true, group: "Instructions and AGENTS.md", description: "File whose text is the compaction prompt when `compact_prompt` is unset. A file that cannot be read stops the start, as in the reference." },
  { key: "project_doc_max_bytes", type: "integer", min: 0, default: DEFAULT_PROJECT_DOC_MAX_BYTES, group: "Instructions and AGENTS.md", description: "Most bytes read from the project's AGENTS.md files in total (a file cut at this limit is named in a warning); 0 turns project docs off." },
  { key: "project_doc_fallback_filenames", type: "string[]", default: [], group: "Instructions and AGENTS.md", description: "Names tried, in order, in a folder without AGENTS.md.", example: 'project_doc_fallback_filenames = ["CLAUDE.md"]' },
  { key: "project_root_markers", type: "string[]", default: [".git"], group: "Instructions and AGENTS.md", description: "Entries marking the project root, where the search for AGENTS.md and `.codex/config.toml` starts; `[]` means the working directory." },

  // Features
  { key: "features", type: "map", names: FEATURE_NAMES, profile: true, group: "Features", description: "Feature flags (see the list below); `--enable NAME` / `--disable NAME` set them for one run.", example: "[features]\nshell_snapshot = false" },
  { key: "features.<feature>", type: "boolean", group: "Features", description: "Turns one feature on or off." },
  { key: "experimental_use_unified_exec_tool", type: "boolean", profile: true, group: "Features", description: "Older spelling of `features.unified_exec`." },
  { key: "experimental_use_freeform_apply_patch", type: "boolean", profile: true, unused: true, group: "Features", description: "Older switch for the freeform apply_patch tool, which each model family now decides." },
  { key: "include_apply_patch_tool", type: "boolean", profile: true, unused: true, group: "Features", description: "Older switch for the apply_patch tool, which each model family now decides." },
  { key: "web_search", type: "string", values: WEB_SEARCH_MODES, profile: true, defaultText: '"cached"', group: "Features", description: "The hosted web search tool (Responses wire only): `disabled`, `cached` (the provider's index, no live fetches), `indexed`, or `live`. `--search` sets `live` for one run.", example: 'web_search = "live"' },
  { key: "tools", type: "table", group: "Features", description: "Tool settings." },
  { key: "tools.web_search", type: ["table", "boolean"], group: "Features", description: "What the web search tool may search (the mode is `web_search`); the older `true` / `false` form is accepted and changes nothing.", example: '[tools.web_search]\nallowed_domains = ["docs.python.org"]' },
  { key: "tools.web_search.context_size", type: "string", values: ["low", "medium", "high"], group: "Features", description: "How much of the found pages the search puts in context." },
  { key: "tools.web_search.allowed_domains", type: "string[]", group: "Features", description: "Search only these domains." },
  { key: "tools.web_search.location", type: "table", group: "Features", description: "Approximate user location for localised results: `country`, `region`, `city`, `timezone`." },
  { key: "tools.web_search.location.country", type: "string", group: "Features", description: "Two-letter country code, e.g. \"US\"." },
  { key: "tools.web_search.location.region", type: "string", group: "Features", description: "Region or state." },
  { key: "tools.web_search.location.city", type: "string", group: "Features", description: "City." },
  { key: "tools.web_search.location.timezone", type: "string", group: "Features", description: "IANA time zone, e.g. \"America/New_York\"." },
  { key: "tools.view_image", type: "boolean", unused: true, group: "Features", description: "Older switch for the view_image tool." },
  { key: "ghost_snapshot", type: "table", group: "Features", description: "Undo's snapshots of the working tree at the start and end of each turn (`/undo`, `/redo`, Esc Esc; see docs/undo.md)." },
  { key: "ghost_snapshot.enabled", type: "boolean", default: true, group: "Features", description: "codex-ts only: take the snapshots that `/undo` needs; false turns undo off." },
  { key: "ghost_snapshot.ignore_large_untracked_files", type: "integer", group: "Features", description: "Untracked files above this many bytes are left out of snapshots (10 MiB when unset; 0 or less: none are left out for their size)." },
  { key: "ghost_snapshot.ignore_large_untracked_dirs", type: "integer", group: "Features", description: "Untracked folders with at least this many files directly in them are left out of snapshots (200 when unset; 0 or less: none are)." },
  { key: "ghost_snapshot.disable_warnings", type: "boolean", default: false, group: "Features", description: "Do not warn about files left out of snapshots." },
  { key: "suppress_unstable_features_warning", type: "boolean", default: false, group: "Features", description: "Do not warn when an under-development feature is on." },

  // MCP servers
  { key: "mcp_servers", type: "map", group: "MCP servers", description: "MCP servers whose tools the model may call, by name." },
  { key: "mcp_servers.<name>", type: "table", check: (v) => shapeProblem(v as TomlTable), group: "MCP servers", description: "One server: `command` for a stdio server or `url` for a streamable HTTP server.", example: '[mcp_servers.docs]\ncommand = "npx"\nargs = ["-y", "@example/docs-mcp"]' },
  { key: "mcp_servers.<name>.command", type: "string", group: "MCP servers", description: "stdio: the program to start." },
  { key: "mcp_servers.<name>.args", type: "string[]", default: [], group: "MCP servers", description: "stdio: its arguments." },
  { key: "mcp_servers.<name>.env", type: "map", group: "MCP servers", description: "stdio: variables to set for it." },
  { key: "mcp_servers.<name>.env.<VAR>", type: "string", group: "MCP servers", description: "stdio: one variable." },
  { key: "mcp_servers.<name>.env_vars", type: "string[]", default: [], group: "MCP servers", description: "stdio: variables passed through from your environment." },
  { key: "mcp_servers.<name>.cwd", type: "string", group: "MCP servers", description: "stdio: its working directory." },
  { key: "mcp_servers.<name>.url", type: "string", group: "MCP servers", description: "HTTP: the server's URL.", example: '[mcp_servers.remote]\nurl = "https://mcp.example.com/mcp"\nbearer_token_env_var = "EXAMPLE_TOKEN"' },
  { key: "mcp_servers.<name>.bearer_token_env_var", type: "string", group: "MCP servers", description: "HTTP: variable holding a bearer token." },
  { key: "mcp_servers.<name>.http_headers", type: "map", group: "MCP servers", description: "HTTP: headers to send." },
  { key: "mcp_servers.<name>.http_headers.<header>", type: "string", group: "MCP servers", description: "HTTP: one header value." },
  { key: "mcp_servers.<name>.env_http_headers", type: "map", group: "MCP servers", description: "HTTP: headers whose values come from variables (header → variable)." },
  { key: "mcp_servers.<name>.env_http_headers.<header>", type: "string", group: "MCP servers", description: "HTTP: the variable for one header." },
  { key: "mcp_servers.<name>.scopes", type: "string[]", group: "MCP servers", description: "HTTP: OAuth scopes `codex-ts mcp login` asks for, besides those the server names." },
  { key: "mcp_servers.<name>.oauth_resource", type: "string", group: "MCP servers", description: "HTTP: the OAuth `resource` parameter to send instead of the one the server's metadata names." },
  { key: "mcp_servers.<name>.oauth", type: "table", group: "MCP servers", description: "HTTP: a client registered with the server's authorization server in advance (otherwise codex-ts registers itself).", example: '[mcp_servers.tracker]\nurl = "https://tracker.example.com/mcp"\nscopes = ["issues:read"]\n\n[mcp_servers.tracker.oauth]\nclient_id = "codex-cli"' },
  { key: "mcp_servers.<name>.oauth.client_id", type: "string", group: "MCP servers", description: "HTTP: the pre-registered OAuth client id." },
  { key: "mcp_servers.<name>.oauth.client_secret", type: "string", group: "MCP servers", description: "HTTP: its secret, for a confidential client." },
  { key: "mcp_servers.<name>.oauth.callback_url", type: "string", group: "MCP servers", description: "HTTP: the exact redirect URI registered for the pre-registered client (`mcp add --oauth-client-id` writes `http://127.0.0.1/callback/<id>`); without a port, the callback listener's port is filled in." },
  { key: "mcp_servers.<name>.oauth.token_endpoint_auth_method", type: "string", values: ["none", "client_secret_basic", "client_secret_post"], group: "MCP servers", description: "HTTP: how the client authenticates at the token endpoint (default: the best the server supports)." },
  { key: "mcp_servers.<name>.enabled", type: "boolean", default: true, group: "MCP servers", description: "false keeps the server configured but not started." },
  { key: "mcp_servers.<name>.required", type: "boolean", default: false, group: "MCP servers", description: "Fail the session when the server cannot start." },
  { key: "mcp_servers.<name>.startup_timeout_sec", type: "number", min: 0, default: DEFAULT_MCP_STARTUP_TIMEOUT_SEC, group: "MCP servers", description: "Seconds to wait for the server to start and list its tools." },
  { key: "mcp_servers.<name>.startup_timeout_ms", type: "integer", min: 0, group: "MCP servers", description: "Older spelling of `startup_timeout_sec`, in milliseconds." },
  { key: "mcp_servers.<name>.tool_timeout_sec", type: "number", min: 0, default: DEFAULT_MCP_TOOL_TIMEOUT_SEC, group: "MCP servers", description: "Seconds a tool call may take." },
  { key: "mcp_servers.<name>.enabled_tools", type: "string[]", defaultText: "all tools", group: "MCP servers", description: "Only these tools are offered." },
  { key: "mcp_servers.<name>.disabled_tools", type: "string[]", default: [], group: "MCP servers", description: "These tools are not offered (applied after `enabled_tools`)." },
  { key: "mcp_oauth_credentials_store", type: "string", values: ["auto", "keyring", "file"], default: "auto", group: "MCP servers", description: "Where MCP OAuth tokens are stored: `file` is `$CODEX_HOME/.credentials.json`; codex-ts has no OS keyring, so `auto` and `keyring` use the file too (`keyring` with a warning)." },
  { key: "mcp_oauth_client_metadata_url", type: "string", group: "MCP servers", description: "codex-ts only: the https URL of a client ID metadata document you host for codex-ts; used as the OAuth client id by authorization servers that accept URL ids (CIMD), instead of registering dynamically." },
  { key: "mcp_oauth_callback_port", type: "integer", min: 1, max: 65535, defaultText: "a free port", group: "MCP servers", description: "Port of the local server that receives the MCP OAuth callback (`http://127.0.0.1:<port>/callback/<id>`, the id derived from the server's URL)." },
  { key: "mcp_oauth_callback_url", type: "string", group: "MCP servers", description: "The MCP OAuth redirect URI's base, when the browser must come back through another address (a proxy, a forwarded port); the per-server id is appended. The listener still binds 127.0.0.1 on `mcp_oauth_callback_port` (or the URL's port, or a free one)." },

  // Profiles and projects
  { key: "profile", type: "string", userOnly: true, group: "Profiles", description: "The profile used when `--profile` is not given.", example: 'profile = "fast"' },
  { key: "profiles", type: "map", userOnly: true, group: "Profiles", description: "Named sets of settings; the chosen one overrides the top-level values." },
  { key: "profiles.<name>", type: "table", group: "Profiles", description: "One profile. It may hold the keys listed below.", example: '[profiles.fast]\nmodel = "gpt-5.5"\nmodel_reasoning_effort = "low"' },
  { key: "projects", type: "map", userOnly: true, group: "Projects", description: "Per-project settings, by absolute path (only read from your own config.toml)." },
  { key: "projects.<path>", type: "table", group: "Projects", description: "One project.", example: '[projects."/home/me/src/app"]\ntrust_level = "trusted"' },
  { key: "projects.<path>.trust_level", type: "string", values: ["trusted", "untrusted"], group: "Projects", description: "`trusted` loads the project's `.codex/config.toml` files." },

  // History and notifications
  { key: "history", type: "table", group: "History and notifications", description: "The prompt history file, `$CODEX_HOME/history.jsonl`." },
  { key: "history.persistence", type: "string", values: ["save-all", "none"], default: "save-all", group: "History and notifications", description: "Save every prompt, or none." },
  { key: "history.max_bytes", type: "integer", min: 0, defaultText: "no limit", group: "History and notifications", description: "Size at which the oldest entries are dropped." },
  { key: "notify", type: "string[]", userOnly: true, group: "History and notifications", description: "Program (and arguments) run after each turn with a JSON description of it as the last argument.", example: 'notify = ["python3", "/home/me/.codex-ts/notify.py"]' },
  { key: "otel", type: "table", userOnly: true, group: "History and notifications", description: "OpenTelemetry: the `codex.*` events (API requests, stream events, prompts, tool decisions and results) and counters, sent to your OTLP collector. Off unless `exporter` names one." },
  { key: "otel.environment", type: "string", default: "dev", group: "History and notifications", description: "The `env` resource attribute of every record." },
  { key: "otel.exporter", type: ["string", "table"], default: "none", check: exporterProblem, group: "History and notifications", description: "`none`, `{ otlp-http = { endpoint, protocol = \"binary\"|\"json\", headers } }` or `{ otlp-grpc = { endpoint, headers } }`; `${VAR}` in a header value is taken from the environment.", example: 'exporter = { otlp-http = { endpoint = "http://localhost:4318/v1/logs", protocol = "binary", headers = { "x-api-key" = "${OTLP_TOKEN}" } } }' },
  { key: "otel.log_user_prompt", type: "boolean", default: false, group: "History and notifications", description: "Send the prompt text in `codex.user_prompt` (otherwise `[REDACTED]`)." },

  // Interface
  { key: "tui", type: "any", knownKeys: TUI_KEYS, group: "Interface", description: "Settings of the interactive UI (see docs/tui.md); keys of the reference's [tui] not listed here are accepted and not used." },
  { key: "tui.alternate_screen", type: "boolean", default: false, group: "Interface", description: "Use the whole screen instead of printing into the terminal's scrollback (`--alt-screen` / `--no-alt-screen` for one run)." },
  { key: "tui.notifications", type: ["boolean", "string[]"], default: true, group: "Interface", description: "Desktop notifications (OSC 9) while the terminal is unfocused: true, false, or a list of `agent-turn-complete`, `approval-requested`." },
  { key: "tui.notification_method", type: "string", default: "auto", group: "Interface", description: "How a notification reaches the terminal: `osc9`, `bel`, or `auto` (OSC 9 in terminals known to show it, else the bell)." },
  { key: "file_opener", type: "string", values: ["vscode", "vscode-insiders", "windsurf", "cursor", "none"], default: "vscode", unused: true, group: "Interface", description: "Editor that file citations link to." },
  { key: "check_for_update_on_startup", type: "boolean", default: true, unused: true, group: "Interface", description: "Check for a newer version at startup." },
  { key: "disable_paste_burst", type: "boolean", default: false, unused: true, group: "Interface", description: "Turn off paste-burst detection in the composer." },
  { key: "log_dir", type: "path", defaultText: "$CODEX_HOME/log", unused: true, group: "Interface", description: "Folder for log files." },
  { key: "notice", type: "any", unused: true, group: "Interface", description: "Acknowledged notices, written by the UI." },
  { key: "windows_wsl_setup_acknowledged", type: "boolean", unused: true, group: "Interface", description: "Written by the UI on Windows." },
  { key: "windows", type: "any", profile: true, unused: true, group: "Interface", description: "Windows sandbox settings." },
  { key: "analytics", type: "table", profile: true, unused: true, group: "Interface", description: "Usage analytics." },
  { key: "analytics.enabled", type: "boolean", default: true, unused: true, group: "Interface", description: "false turns analytics off." },
  { key: "feedback", type: "table", unused: true, group: "Interface", description: "Feedback collection." },
  { key: "feedback.enabled", type: "boolean", default: true, unused: true, group: "Interface", description: "false turns feedback collection off." },

  // Authentication
  { key: "forced_login_method", type: "string", values: ["chatgpt", "api"], group: "Authentication", description: "Allow only this login method: `chatgpt` refuses API keys, `api` refuses a ChatGPT login." },
  { key: "preferred_auth_method", type: "string", values: ["chatgpt", "apikey"], default: "chatgpt", group: "Authentication", description: "With both a ChatGPT login and an API key at hand, which one runs use (older reference key)." },
  { key: "forced_chatgpt_workspace_id", type: ["string", "string[]"], group: "Authentication", description: "Allow only a ChatGPT login of this workspace (account id), or of these." },
  { key: "cli_auth_credentials_store", type: "string", values: ["file", "keyring", "auto", "ephemeral"], default: "file", unused: true, group: "Authentication", description: "Where the login is stored." },
  { key: "chatgpt_base_url", type: "string", default: "https://chatgpt.com/backend-api/", profile: true, userOnly: true, group: "Authentication", description: "Base URL of ChatGPT's backend; with a ChatGPT login, model requests go to `<it>/codex/responses`." },

  // Sub-agents
  { key: "agents", type: "table", group: "Sub-agents", description: "Sub-agents (the collab tools): how many may be open and how deep they may nest, and roles of your own (docs/subagents.md).", example: "[agents]\nmax_threads = 4\nmax_depth = 1" },
  { key: "agents.max_threads", type: "integer", min: 1, default: DEFAULT_AGENT_MAX_THREADS, group: "Sub-agents", description: "Most sub-agents a thread's tree may have open at once (finished ones count until they are closed)." },
  { key: "agents.max_depth", type: "integer", min: 1, default: DEFAULT_AGENT_MAX_DEPTH, group: "Sub-agents", description: "How deep sub-agents may nest: 1 lets your thread start sub-agents that cannot start their own." },
  { key: "agents.job_max_runtime_seconds", type: "integer", min: 1, unused: true, group: "Sub-agents", description: "Longest run of a batch agent job." },
  { key: "agents.<name>", type: "table", group: "Sub-agents", description: "A role the model may give a sub-agent (`agent_type`), besides those in `$CODEX_HOME/agents/*.toml` and a trusted project's `.codex/agents/*.toml`.", example: '[agents.reviewer]\ndescription = "Reviews a change for bugs and missing tests."\nnickname_candidates = ["Ada", "Grace"]' },
  { key: "agents.<name>.description", type: "string", group: "Sub-agents", description: "What the role is for, as the model reads it when choosing one." },
  { key: "agents.<name>.config_file", type: "path", group: "Sub-agents", description: "A role file whose settings (model, model_reasoning_effort, developer_instructions, sandbox_mode, …) the role applies." },
  { key: "agents.<name>.nickname_candidates", type: "string[]", group: "Sub-agents", description: "Nicknames to give agents of this role." },

  // Other keys of the reference, accepted without checks so its config.toml loads unchanged.
  { key: "skills", type: "any", unused: true, group: "Other", description: "Skill settings." },
  { key: "apps", type: "any", unused: true, group: "Other", description: "App (connector) settings." },
  {
    key: "hooks",
    type: "any",
    group: "Other",
    description:
      "Lifecycle hooks written inline, as in hooks.json (`[[hooks.PreToolUse]]` with `matcher` and `[[hooks.PreToolUse.hooks]]` entries), and `[hooks.state.\"<key>\"]` (`trusted_hash`, `enabled`: what `/hooks` saves). See docs/hooks.md.",
    example: '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "paplay /usr/share/sounds/freedesktop/stereo/complete.oga"',
  },
  { key: "plugins", type: "any", unused: true, group: "Other", description: "Plugin settings." },
  { key: "memories", type: "any", unused: true, group: "Other", description: "Memory settings." },
  { key: "allow_login_shell", type: "boolean", default: true, unused: true, group: "Other", description: "Whether the model may ask for a login shell." },
  { key: "background_terminal_max_timeout", type: "integer", min: 0, unused: true, group: "Other", description: "Longest `write_stdin` poll, in milliseconds." },
];

/** Every key, with each profile-capable key repeated under `profiles.<name>`. */
export const CONFIG_SCHEMA: readonly KeySpec[] = withProfileKeys(BASE_SCHEMA);

function withProfileKeys(base: readonly KeySpec[]): KeySpec[] {
  const roots = new Set(base.filter((s) => s.profile).map((s) => s.key));
  const out: KeySpec[] = [];
  for (const spec of base) {
    out.push(spec);
    if (spec.key === "profiles.<name>") {
      for (const inner of base) {
        if (!roots.has(inner.key.split(".")[0] ?? "")) continue;
        const { profile: _p, userOnly: _u, example: _e, default: _d, ...rest } = inner;
        out.push({
          ...rest,
          key: `profiles.<name>.${inner.key}`,
          group: "Profiles",
          defaultText: "the top-level value",
          description: `Overrides \`${inner.key}\` while the profile is active.`,
        });
      }
    }
  }
  return out;
}

/** Top-level keys a project's `.codex/config.toml` may not set. */
export const USER_ONLY_KEYS: readonly string[] = BASE_SCHEMA.filter((s) => s.userOnly && !s.key.includes(".")).map((s) => s.key);

export const KNOWN_TOP_LEVEL_KEYS: ReadonlySet<string> = new Set(BASE_SCHEMA.map((s) => s.key.split(".")[0] ?? ""));

// ---------------------------------------------------------------------------------------------
// The schema as a tree, for walking config tables.

interface SchemaNode {
  spec?: KeySpec;
  children: Map<string, SchemaNode>;
  /** The `<name>` child of a map. */
  any?: SchemaNode;
}

const isPlaceholder = (segment: string): boolean => segment.startsWith("<") && segment.endsWith(">");

function buildTree(specs: readonly KeySpec[]): SchemaNode {
  const root: SchemaNode = { children: new Map() };
  for (const spec of specs) {
    let node = root;
    for (const segment of spec.key.split(".")) {
      if (isPlaceholder(segment)) {
        node.any ??= { children: new Map() };
        node = node.any;
      } else {
        let next = node.children.get(segment);
        if (!next) node.children.set(segment, (next = { children: new Map() }));
        node = next;
      }
    }
    node.spec = spec;
  }
  return root;
}

const TREE = buildTree(CONFIG_SCHEMA);

// ---------------------------------------------------------------------------------------------
// Validation.

export interface Problem {
  path: string[];
  /** For errors, what is wrong with the value; for unknown keys, the whole warning. */
  message: string;
}

export interface ValidationResult {
  errors: Problem[];
  /** Keys that are not in the schema, and feature names the reference does not define. */
  unknown: Problem[];
}

/** Checks one layer's table against the schema. Nothing is thrown; the caller formats. */
export function validateTable(table: TomlTable): ValidationResult {
  const result: ValidationResult = { errors: [], unknown: [] };
  walk(table, TREE, [], result);
  return result;
}

function walk(table: TomlTable, node: SchemaNode, path: string[], out: ValidationResult): void {
  for (const [key, value] of Object.entries(table)) {
    const at = [...path, key];
    const child = node.children.get(key) ?? node.any;
    const spec = child?.spec;
    if (!child || !spec) {
      const inProfile = path.length === 2 && path[0] === "profiles" && KNOWN_TOP_LEVEL_KEYS.has(key);
      const message = inProfile
        ? `'${formatPath(at)}' is ignored: '${key}' cannot be set in a profile`
        : `unknown config key '${formatPath(at)}' is ignored${didYouMean(key, node.children.keys())}`;
      out.unknown.push({ path: at, message });
      continue;
    }
    if (child === node.any && node.spec?.names && !node.spec.names.includes(key)) {
      out.unknown.push({ path: at, message: `unknown feature '${key}' (${formatPath(at)}) is ignored${didYouMean(key, node.spec.names)}` });
      continue;
    }
    const problem = checkValue(value, spec);
    if (problem) {
      out.errors.push({ path: at, message: problem });
      continue;
    }
    // A table whose keys the schema does not list (otel.exporter's `{ otlp-http = … }`) is
    // free-form: its `check` judges it whole, and walking it would call every key unknown.
    const described = child.children.size > 0 || child.any !== undefined;
    if (isTable(value) && described && (kinds(spec).includes("table") || kinds(spec).includes("map"))) walk(value, child, at, out);
    else if (isTable(value) && spec.knownKeys) nearMisses(value, spec.knownKeys, at, out);
  }
}

/** Keys of an unchecked table that look like typos of known ones. */
function nearMisses(table: TomlTable, known: readonly string[], path: string[], out: ValidationResult): void {
  for (const key of Object.keys(table)) {
    if (known.includes(key)) continue;
    const suggestion = didYouMean(key, known);
    if (suggestion) out.unknown.push({ path: [...path, key], message: `unknown config key '${formatPath([...path, key])}' is ignored${suggestion}` });
  }
}

function kinds(spec: KeySpec): readonly ValueKind[] {
  return typeof spec.type === "string" ? [spec.type] : spec.type;
}

export function isTable(value: unknown): value is TomlTable {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function hasKind(value: unknown, kind: ValueKind): boolean {
  switch (kind) {
    case "string":
    case "path":
      return typeof value === "string";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return typeof value === "boolean";
    case "string[]":
    case "path[]":
      return Array.isArray(value) && value.every((v) => typeof v === "string");
    case "table":
    case "map":
      return isTable(value);
    case "any":
      return true;
  }
}

function checkValue(value: unknown, spec: KeySpec): string | null {
  const allowed = kinds(spec);
  if (!allowed.some((k) => hasKind(value, k))) {
    const expected = spec.values ? `one of ${spec.values.join(", ")}` : allowed.map(kindName).join(" or ");
    return `expected ${expected}, got ${describe(value)}`;
  }
  if (spec.values && typeof value === "string" && !spec.values.includes(value)) {
    return `'${value}' is not one of ${spec.values.join(", ")}${didYouMean(value, spec.values)}`;
  }
  if (typeof value === "number") {
    if (spec.min !== undefined && value < spec.min) return `${value} is below the minimum, ${spec.min}`;
    if (spec.max !== undefined && value > spec.max) return `${value} is above the maximum, ${spec.max}`;
  }
  return spec.check ? spec.check(value) : null;
}

export function kindName(kind: ValueKind): string {
  switch (kind) {
    case "string":
      return "a string";
    case "path":
      return "a path (string)";
    case "integer":
      return "an integer";
    case "number":
      return "a number";
    case "boolean":
      return "a boolean (true or false)";
    case "string[]":
      return "an array of strings";
    case "path[]":
      return "an array of paths (strings)";
    case "table":
      return "a table";
    case "map":
      return "a table";
    case "any":
      return "any value";
  }
}

/** A short description of a TOML value for messages: `integer 5`, `"o3"`, `an array`. */
export function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") return `${Number.isInteger(value) ? "integer" : "float"} ${value}`;
  if (typeof value === "boolean") return `boolean ${value}`;
  if (value instanceof Date) return "a date";
  if (Array.isArray(value)) return value.length === 0 ? "an empty array" : "an array";
  if (isTable(value)) return "a table";
  return String(value);
}

/** `projects."/a/b".trust_level`: a key path as it would be written in TOML. */
export function formatPath(path: readonly string[]): string {
  return path.map((p) => (/^[A-Za-z0-9_-]+$/.test(p) ? p : JSON.stringify(p))).join(".");
}

// ---------------------------------------------------------------------------------------------
// Defaults and paths.

/** The built-in defaults layer: every default not under a `<name>`. */
export function defaultsTable(): TomlTable {
  const table: TomlTable = {};
  for (const spec of BASE_SCHEMA) {
    if (spec.default === undefined || spec.key.split(".").some(isPlaceholder)) continue;
    const path = spec.key.split(".");
    let node = table;
    for (const segment of path.slice(0, -1)) {
      const next = node[segment];
      node = isTable(next) ? next : (node[segment] = {}) as TomlTable;
    }
    const value = spec.default;
    node[path[path.length - 1] ?? ""] = Array.isArray(value) ? [...value] : value;
  }
  return table;
}

/** Makes every path-typed value of a (validated) layer absolute, in place. */
export function resolvePaths(table: TomlTable, baseDir: string): void {
  resolveIn(table, TREE, baseDir);
}

function resolveIn(table: TomlTable, node: SchemaNode, baseDir: string): void {
  for (const [key, value] of Object.entries(table)) {
    const child = node.children.get(key) ?? node.any;
    if (!child?.spec) continue;
    const allowed = kinds(child.spec);
    if (allowed.includes("path") && typeof value === "string") table[key] = absolutePath(value, baseDir);
    else if (allowed.includes("path[]") && Array.isArray(value)) table[key] = value.map((v) => (typeof v === "string" ? absolutePath(v, baseDir) : v));
    else if (isTable(value)) resolveIn(value, child, baseDir);
  }
}

function absolutePath(path: string, baseDir: string): string {
  if (path === "~") return homedir();
  if (path.startsWith("~/")) return join(homedir(), path.slice(2));
  return isAbsolute(path) ? path : resolve(baseDir, path);
}
