/**
 * A configured MCP server (`[mcp_servers.<name>]`, defaults filled in), as config/mcp.ts reads
 * it from config.toml. The shapes are here, in the contract, because an op carries them: a
 * thread's servers can be replaced while it runs (`reload_mcp_servers`).
 */

export interface McpCommon {
  /** false: configured but not started. */
  enabled: boolean;
  /** true: the session fails to start when this server cannot be initialised. */
  required: boolean;
  startup_timeout_sec: number;
  tool_timeout_sec: number;
  /** Only these tools are offered (all when absent); `disabled_tools` applies after it. */
  enabled_tools: string[] | null;
  disabled_tools: string[];
}

export interface McpStdioServer extends McpCommon {
  transport: "stdio";
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Names of variables passed through from the user's environment. */
  env_vars: string[];
  cwd: string | null;
}

/** Where MCP OAuth tokens live (`mcp_oauth_credentials_store`). */
export type OAuthCredentialsStoreMode = "auto" | "keyring" | "file";

export type TokenEndpointAuthMethod = "none" | "client_secret_basic" | "client_secret_post";

/** `[mcp_servers.<name>.oauth]`: a client registered in advance; all null means register dynamically. */
export interface McpOAuthClientConfig {
  client_id: string | null;
  client_secret: string | null;
  token_endpoint_auth_method: TokenEndpointAuthMethod | null;
  /** The exact redirect URI registered for this client (`mcp add --oauth-client-id` writes one); its port, when absent, is the listener's. */
  callback_url: string | null;
}

export interface McpHttpServer extends McpCommon {
  transport: "streamable_http";
  url: string;
  bearer_token_env_var: string | null;
  http_headers: Record<string, string>;
  /** Header name → environment variable holding its value. */
  env_http_headers: Record<string, string>;
  scopes: string[];
  oauth: McpOAuthClientConfig;
  oauth_resource: string | null;
  /** From the top-level `mcp_oauth_credentials_store`. */
  oauth_credentials_store: OAuthCredentialsStoreMode;
  /** From the top-level `mcp_oauth_callback_port`; null: a free port. */
  oauth_callback_port: number | null;
  /** From the top-level `mcp_oauth_callback_url`: the redirect URI's base (the per-server path segment is appended). */
  oauth_callback_url: string | null;
  /** From the top-level `mcp_oauth_client_metadata_url`: our client's id where the server accepts URL ids (CIMD). */
  oauth_client_metadata_url: string | null;
}

export type McpServerConfig = McpStdioServer | McpHttpServer;
