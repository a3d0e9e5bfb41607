/**
 * `[mcp_servers.<name>]` tables: a stdio server (`command`, `args`, `env`, `env_vars`, `cwd`)
 * or a streamable HTTP server (`url`, `bearer_token_env_var`, `http_headers`,
 * `env_http_headers`, `scopes`, and for OAuth `oauth_resource` and the `oauth` table of a
 * pre-registered client), plus the settings both share. An HTTP server also carries the
 * top-level OAuth settings (`mcp_oauth_credentials_store`, `mcp_oauth_callback_port`,
 * `mcp_oauth_callback_url`, `mcp_oauth_client_metadata_url`), so
 * everything that dials it has them at hand. The schema has already checked
 * every value's type; `shapeProblem` checks the combination, `mcpServersFromToml` fills in the
 * defaults.
 */
import type { TomlTable } from "./overrides.js";

export const DEFAULT_MCP_STARTUP_TIMEOUT_SEC = 10;
export const DEFAULT_MCP_TOOL_TIMEOUT_SEC = 60;

// The shapes live in the protocol: a thread's MCP servers can be replaced by an op (reload_mcp_servers).
export type { McpHttpServer, McpOAuthClientConfig, McpServerConfig, McpStdioServer, OAuthCredentialsStoreMode, TokenEndpointAuthMethod } from "../protocol/mcp-servers.js";
import type { McpCommon, McpHttpServer, McpOAuthClientConfig, McpServerConfig, OAuthCredentialsStoreMode } from "../protocol/mcp-servers.js";

/** A server with its own credential (`bearer_token_env_var`, or an `Authorization` header) never uses OAuth. */
export function hasStaticCredential(config: McpHttpServer): boolean {
  return config.bearer_token_env_var !== null || Object.keys(config.http_headers).some((h) => h.toLowerCase() === "authorization");
}

/** The OAuth fields of an HTTP server that sets none of them. */
export const NO_OAUTH_SETTINGS: Pick<McpHttpServer, "oauth" | "oauth_resource" | "oauth_credentials_store" | "oauth_callback_port" | "oauth_callback_url" | "oauth_client_metadata_url"> = {
  oauth: { client_id: null, client_secret: null, token_endpoint_auth_method: null, callback_url: null },
  oauth_resource: null,
  oauth_credentials_store: "auto",
  oauth_callback_port: null,
  oauth_callback_url: null,
  oauth_client_metadata_url: null,
};

const STDIO_ONLY = ["args", "env", "env_vars", "cwd"];
const HTTP_ONLY = ["bearer_token_env_var", "http_headers", "env_http_headers", "scopes", "oauth", "oauth_resource"];

/** What is wrong with the combination of keys in one server table, or null. */
export function shapeProblem(server: TomlTable): string | null {
  const has = (key: string): boolean => server[key] !== undefined;
  if (has("bearer_token")) return "bearer_token is not supported; put the token in an environment variable and name it in bearer_token_env_var";
  if (has("command") && has("url")) return "has both command (a stdio server) and url (an HTTP server); keep one";
  if (!has("command") && !has("url")) return "needs command (a stdio server) or url (a streamable HTTP server)";
  const wrong = has("url") ? STDIO_ONLY.filter(has) : HTTP_ONLY.filter(has);
  if (wrong.length > 0) {
    const kind = has("url") ? "stdio servers (with command)" : "HTTP servers (with url)";
    return `${wrong.join(", ")} ${wrong.length > 1 ? "apply" : "applies"} only to ${kind}`;
  }
  return null;
}

/** `raw` is the `mcp_servers` table; `top` the whole config, for the top-level OAuth settings. */
export function mcpServersFromToml(raw: unknown, top: TomlTable = {}): Record<string, McpServerConfig> {
  const servers: Record<string, McpServerConfig> = {};
  const store = top.mcp_oauth_credentials_store;
  const storeMode: OAuthCredentialsStoreMode = store === "file" || store === "keyring" ? store : "auto";
  const callbackPort = num(top.mcp_oauth_callback_port) ?? null;
  const metadataUrl = typeof top.mcp_oauth_client_metadata_url === "string" ? top.mcp_oauth_client_metadata_url : null;
  const callbackUrl = typeof top.mcp_oauth_callback_url === "string" ? top.mcp_oauth_callback_url : null;
  if (!isTable(raw)) return servers;
  for (const [name, value] of Object.entries(raw)) {
    if (!isTable(value)) continue;
    const startupMs = num(value.startup_timeout_ms);
    const common: McpCommon = {
      enabled: value.enabled !== false,
      required: value.required === true,
      startup_timeout_sec: num(value.startup_timeout_sec) ?? (startupMs !== undefined ? startupMs / 1000 : DEFAULT_MCP_STARTUP_TIMEOUT_SEC),
      tool_timeout_sec: num(value.tool_timeout_sec) ?? DEFAULT_MCP_TOOL_TIMEOUT_SEC,
      enabled_tools: Array.isArray(value.enabled_tools) ? strings(value.enabled_tools) : null,
      disabled_tools: strings(value.disabled_tools),
    };
    if (typeof value.url === "string") {
      servers[name] = {
        ...common,
        transport: "streamable_http",
        url: value.url,
        bearer_token_env_var: typeof value.bearer_token_env_var === "string" ? value.bearer_token_env_var : null,
        http_headers: stringMap(value.http_headers),
        env_http_headers: stringMap(value.env_http_headers),
        scopes: strings(value.scopes),
        oauth: oauthClient(value.oauth),
        oauth_resource: typeof value.oauth_resource === "string" ? value.oauth_resource : null,
        oauth_credentials_store: storeMode,
        oauth_callback_port: callbackPort,
        oauth_callback_url: callbackUrl,
        oauth_client_metadata_url: metadataUrl,
      };
    } else if (typeof value.command === "string") {
      servers[name] = {
        ...common,
        transport: "stdio",
        command: value.command,
        args: strings(value.args),
        env: stringMap(value.env),
        env_vars: strings(value.env_vars),
        cwd: typeof value.cwd === "string" ? value.cwd : null,
      };
    }
  }
  return servers;
}

function oauthClient(value: unknown): McpOAuthClientConfig {
  const table = isTable(value) ? value : {};
  const text = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v : null);
  const method = table.token_endpoint_auth_method;
  return {
    client_id: text(table.client_id),
    client_secret: text(table.client_secret),
    token_endpoint_auth_method: method === "none" || method === "client_secret_basic" || method === "client_secret_post" ? method : null,
    callback_url: text(table.callback_url),
  };
}

function isTable(value: unknown): value is TomlTable {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function num(value: unknown): number | undefined {
  return typeof value === "number" ? value : undefined;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function stringMap(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isTable(value)) for (const [k, v] of Object.entries(value)) if (typeof v === "string") out[k] = v;
  return out;
}
