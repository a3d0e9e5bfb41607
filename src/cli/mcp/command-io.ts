/**
 * What the `mcp` subcommands share: where they write (stdout, stderr, the environment and folder
 * they run in), their one error type and exit code, the configured servers as a session reads
 * them, and the `--oauth-client-registration` value.
 */
import { loadConfig } from "../../config/load-config.js";
import type { McpServerConfig } from "../../config/mcp.js";
import { ConfigError, type TomlTable } from "../../config/overrides.js";
import type { ClientRegistration } from "../../host/mcp-auth.js";
import { ConfigEditError } from "./config-edit.js";

export interface McpIo {
  out: (text: string) => void;
  err: (text: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export const defaultIo = (): McpIo => ({
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  env: process.env,
  cwd: process.cwd(),
});

export interface McpAddOptions {
  env?: string[];
  url?: string;
  bearerTokenEnvVar?: string;
  oauthClientId?: string;
  oauthClientSecret?: string;
  oauthResource?: string;
  oauthClientRegistration?: string;
  config?: string[];
}

export class CommandError extends Error {}

export async function run(io: McpIo, body: () => void | Promise<void>): Promise<number> {
  try {
    await body();
    return 0;
  } catch (err) {
    if (err instanceof CommandError || err instanceof ConfigEditError || err instanceof ConfigError) {
      io.err(`Error: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}

export interface Listed {
  name: string;
  server: McpServerConfig;
  raw: TomlTable;
}

export function loadServers(io: McpIo, overrides: string[]): Listed[] {
  let servers: Record<string, McpServerConfig>;
  let raw: TomlTable;
  try {
    const config = loadConfig({ cwd: io.cwd, overrides, env: io.env });
    servers = config.mcpServers;
    raw = isTable(config.toml.mcp_servers) ? config.toml.mcp_servers : {};
  } catch (err) {
    if (err instanceof ConfigError) throw new CommandError(`failed to load configuration: ${err.message}`);
    throw err;
  }
  return Object.keys(servers)
    .sort()
    .map((name) => ({ name, server: servers[name] as McpServerConfig, raw: isTable(raw[name]) ? raw[name] : {} }));
}

function isTable(value: unknown): value is TomlTable {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** `--oauth-client-registration`: how the login about to run obtains a client. */
export function parseClientRegistration(raw: string | undefined): ClientRegistration | undefined {
  if (raw === undefined) return undefined;
  if (raw === "auto" || raw === "cimd" || raw === "dcr") return raw;
  throw new CommandError(`invalid value '${raw}' for '--oauth-client-registration <AUTO|CIMD|DCR>' (possible values: auto, cimd, dcr)`);
}
