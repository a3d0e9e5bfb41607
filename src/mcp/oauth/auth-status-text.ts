/**
 * The reference's `McpAuthStatus` values (as `mcp list --json` prints them) and the words its
 * tables show. Kept apart from status.ts so listing stdio servers loads no MCP SDK code.
 */
import type { McpAuthStatus } from "../../protocol/mcp-events.js";

export type { McpAuthStatus };

export const AUTH_STATUS_TEXT: Record<McpAuthStatus, string> = {
  unsupported: "Unsupported",
  not_logged_in: "Not logged in",
  bearer_token: "Bearer token",
  o_auth: "OAuth",
};
