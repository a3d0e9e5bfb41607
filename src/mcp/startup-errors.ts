/**
 * Why an MCP server did not start, in two forms: the raw error (what a `required` server's
 * failure reports) and the text shown in the start-up failure event, which carries the
 * reference's hints for the common cases (GitHub's MCP needing a token, a server wanting a login,
 * a start-up timeout) and otherwise its generic "failed to start" wording.
 */
import type { McpServerConfig } from "../config/mcp.js";

export type StartupErrorKind = "timeout" | "auth" | "cancelled" | "other";

export class McpStartupError extends Error {
  constructor(
    message: string,
    readonly kind: StartupErrorKind = "other",
  ) {
    super(message);
    this.name = "McpStartupError";
  }
}

const GITHUB_COPILOT_MCP_URL = "https://api.githubcopilot.com/mcp/";

/** errno names as Rust's `io::Error` prints them, so messages read like the reference's. */
const ERRNO_TEXT: Record<string, string> = {
  ENOENT: "No such file or directory (os error 2)",
  EACCES: "Permission denied (os error 13)",
  ENOTDIR: "Not a directory (os error 20)",
};

/** A spawn failure of a stdio server's command, naming the command (Node's own text does not). */
export function spawnErrorMessage(command: string, err: NodeJS.ErrnoException): string {
  const text = (err.code && ERRNO_TEXT[err.code]) ?? err.message;
  return `failed to spawn \`${command}\`: ${text}`;
}

function isGithubWithoutToken(config: McpServerConfig | undefined): boolean {
  return (
    config?.transport === "streamable_http" &&
    config.url === GITHUB_COPILOT_MCP_URL &&
    config.bearer_token_env_var === null &&
    Object.keys(config.http_headers).length === 0
  );
}

/** The text of a start-up failure event for `server`. */
export function startupFailureDisplay(server: string, config: McpServerConfig | undefined, err: McpStartupError): string {
  if (isGithubWithoutToken(config)) {
    return `GitHub MCP does not support OAuth. Log in by adding a personal access token (https://github.com/settings/personal-access-tokens) to your environment and config.toml:\n[mcp_servers.${server}]\nbearer_token_env_var = CODEX_GITHUB_PERSONAL_ACCESS_TOKEN`;
  }
  // The reference names its own program here; ours is codex-ts.
  if (err.kind === "auth") return `The ${server} MCP server is not logged in. Run \`codex-ts mcp login ${server}\`.`;
  if (err.kind === "timeout") {
    // The reference prints whole seconds.
    const secs = Math.floor(config?.startup_timeout_sec ?? 10);
    return `MCP client for \`${server}\` timed out after ${secs} seconds. Add or adjust \`startup_timeout_sec\` in your config.toml:\n[mcp_servers.${server}]\nstartup_timeout_sec = XX`;
  }
  return `MCP client for \`${server}\` failed to start: MCP startup failed: ${err.message}`;
}

/** The raw text of a failure, as a `required` server's start-up error reports it. */
export function startupFailureRaw(err: McpStartupError): string {
  return err.kind === "cancelled" ? "MCP startup cancelled" : err.message;
}
