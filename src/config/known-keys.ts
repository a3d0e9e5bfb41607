/**
 * Top-level config.toml keys the reference defines. Keys outside this set draw a warning (a
 * typo should be visible) but never an error (a newer reference key must not break us).
 */
export const KNOWN_TOP_LEVEL_KEYS: ReadonlySet<string> = new Set([
  "model", "review_model", "model_provider", "oss_provider", "model_providers", "openai_base_url",
  "model_context_window", "model_auto_compact_token_limit", "tool_output_token_limit",
  "model_reasoning_effort", "model_reasoning_summary", "model_reasoning_summary_format", "model_verbosity",
  "model_supports_reasoning_summaries", "personality", "show_raw_agent_reasoning", "hide_agent_reasoning",
  "instructions", "developer_instructions", "model_instructions_file", "experimental_instructions_file",
  "compact_prompt", "experimental_compact_prompt_file", "approval_policy", "sandbox_mode",
  "sandbox_workspace_write", "shell_environment_policy", "tools", "features", "ghost_snapshot", "agents",
  "skills", "apps", "mcp_servers", "mcp_oauth_credentials_store", "mcp_oauth_callback_port", "notify", "otel",
  "history", "tui", "file_opener", "check_for_update_on_startup", "disable_paste_burst", "log_dir",
  "analytics", "feedback", "notice", "suppress_unstable_features_warning", "windows_wsl_setup_acknowledged",
  "forced_login_method", "forced_chatgpt_workspace_id", "cli_auth_credentials_store", "chatgpt_base_url",
  "project_doc_max_bytes", "project_doc_fallback_filenames", "project_root_markers", "projects", "profile",
  "profiles", "web_search", "windows", "model_catalog_json", "experimental_use_unified_exec_tool",
]);
