/**
 * The environment a spawned command sees, derived from the `[shell_environment_policy]` table of
 * config.toml the way the reference does it: pick a starting set (`inherit`), drop names that
 * look like credentials (unless `ignore_default_excludes`), drop `exclude` matches, apply `set`,
 * then keep only `include_only` matches when that list is non-empty. Name patterns are
 * case-insensitive globs where `*` matches any run of characters and `?` exactly one.
 */

export type ShellEnvironmentInherit = "all" | "core" | "none";

/** The config table, field names as they appear in config.toml. Every field is optional. */
export interface ShellEnvironmentPolicy {
  inherit?: ShellEnvironmentInherit;
  /**
   * Unless true, names matching *KEY*, *SECRET* or *TOKEN* are removed. Recent reference builds
   * keep them by default; we drop them by default so an API key never reaches a command the
   * model runs, and users who need them set this to true.
   */
  ignore_default_excludes?: boolean;
  exclude?: string[];
  set?: Record<string, string>;
  include_only?: string[];
}

/**
 * Names kept by `inherit = "core"` on Unix. Older reference builds listed HOME LOGNAME PATH SHELL
 * USER USERNAME TMPDIR TEMP TMP; current ones drop USERNAME (a Windows name) and add the locale
 * variables so that UTF-8 output survives.
 */
export const CORE_ENV_VARS: readonly string[] = [
  "PATH",
  "SHELL",
  "TMPDIR",
  "TEMP",
  "TMP",
  "HOME",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "LOGNAME",
  "USER",
];

export const DEFAULT_EXCLUDE_PATTERNS: readonly string[] = ["*KEY*", "*SECRET*", "*TOKEN*"];

/** Set for commands when the sandbox forbids network access; tools read it to skip network tests. */
export const NETWORK_DISABLED_ENV_VAR = "CODEX_SANDBOX_NETWORK_DISABLED";
/** Carries the conversation id into spawned commands. */
export const THREAD_ID_ENV_VAR = "CODEX_THREAD_ID";

/** Compiles a glob (`*`, `?`) into a case-insensitive, anchored regular expression. */
export function globToRegExp(pattern: string): RegExp {
  let source = "";
  for (const ch of pattern) {
    if (ch === "*") source += ".*";
    else if (ch === "?") source += ".";
    else source += ch.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
  }
  return new RegExp(`^${source}$`, "isu");
}

function matcher(patterns: readonly string[]): (name: string) => boolean {
  const compiled = patterns.map(globToRegExp);
  return (name) => compiled.some((re) => re.test(name));
}

export interface CreateCommandEnvOptions {
  /** When given, exported to the command as CODEX_THREAD_ID (the reference does this last). */
  threadId?: string;
}

export function createCommandEnv(
  policy: ShellEnvironmentPolicy = {},
  baseEnv: NodeJS.ProcessEnv | Record<string, string | undefined> = process.env,
  options: CreateCommandEnvOptions = {},
): Record<string, string> {
  const inherit = policy.inherit ?? "all";
  const env: Record<string, string> = {};

  // 1. Starting set.
  if (inherit !== "none") {
    const core = new Set(CORE_ENV_VARS);
    for (const [name, value] of Object.entries(baseEnv)) {
      if (value === undefined) continue;
      if (inherit === "core" && !core.has(name)) continue;
      env[name] = value;
    }
  }

  const removeMatching = (patterns: readonly string[]): void => {
    const matches = matcher(patterns);
    for (const name of Object.keys(env)) if (matches(name)) delete env[name];
  };

  // 2. Credential-looking names.
  if (policy.ignore_default_excludes !== true) removeMatching(DEFAULT_EXCLUDE_PATTERNS);
  // 3. User excludes.
  if (policy.exclude && policy.exclude.length > 0) removeMatching(policy.exclude);
  // 4. Explicit values.
  for (const [name, value] of Object.entries(policy.set ?? {})) env[name] = value;
  // 5. Allow-list.
  if (policy.include_only && policy.include_only.length > 0) {
    const keep = matcher(policy.include_only);
    for (const name of Object.keys(env)) if (!keep(name)) delete env[name];
  }
  // 6. Conversation id.
  if (options.threadId !== undefined) env[THREAD_ID_ENV_VAR] = options.threadId;
  return env;
}

/** Returns a copy of `env` with CODEX_SANDBOX_NETWORK_DISABLED=1 added when `disabled` is true. */
export function withNetworkDisabledFlag(env: Record<string, string>, disabled: boolean): Record<string, string> {
  return disabled ? { ...env, [NETWORK_DISABLED_ENV_VAR]: "1" } : { ...env };
}
