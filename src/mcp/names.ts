/**
 * Model-visible names for MCP tools. The Responses API only accepts tool names matching
 * `^[a-zA-Z0-9_-]+$` of at most 64 characters, while server and tool names are whatever the user
 * and the server chose, so the qualified name `mcp__<server>__<tool>` is sanitised, shortened with
 * a SHA-1 of the raw name when too long, and de-duplicated. The raw server and tool names are kept
 * beside it: they are what goes back to the server.
 */
import { createHash } from "node:crypto";
import { sanitizeToolName } from "../protocol/mcp-events.js";

/** The reference's delimiter; it has to come from the allowed character set. */
export const MCP_TOOL_NAME_DELIMITER = "__";
/** The reference prefixes every MCP tool (its `prefix_mcp_tool_names`, on by default). */
export const MCP_TOOL_NAME_PREFIX = "mcp";
export const MAX_TOOL_NAME_LENGTH = 64;

const SHA1_HEX_LENGTH = 40;

export { sanitizeToolName };

export function sha1Hex(text: string): string {
  return createHash("sha1").update(text, "utf8").digest("hex");
}

/** `mcp__<server>__<tool>` before sanitising; also the identity hashed into shortened names. */
export function rawQualifiedName(server: string, tool: string): string {
  return `${MCP_TOOL_NAME_PREFIX}${MCP_TOOL_NAME_DELIMITER}${server}${MCP_TOOL_NAME_DELIMITER}${tool}`;
}

/** The first characters of `name` followed by the SHA-1 of `raw`, exactly 64 characters long. */
function withHash(name: string, raw: string): string {
  return name.slice(0, MAX_TOOL_NAME_LENGTH - SHA1_HEX_LENGTH) + sha1Hex(raw);
}

export interface ToolIdentity {
  server: string;
  tool: string;
}

/**
 * Assigns qualified names in iteration order (callers sort servers by name so the result does not
 * depend on which server answered first). The same raw server/tool pair listed twice is kept once.
 * When two different raw names sanitise to the same string, the later one gets the hash suffix of
 * its raw name, so `foo.bar` and `foo_bar` both stay callable.
 */
export function qualifyTools<T extends ToolIdentity>(tools: Iterable<T>): Map<string, T> {
  const qualified = new Map<string, T>();
  const seenRaw = new Set<string>();
  for (const entry of tools) {
    const raw = rawQualifiedName(entry.server, entry.tool);
    if (seenRaw.has(raw)) continue;
    seenRaw.add(raw);
    let name = sanitizeToolName(raw);
    // The hash is of the raw name so it stays stable even if sanitising rules change.
    if (name.length > MAX_TOOL_NAME_LENGTH) name = withHash(name, raw);
    if (qualified.has(name)) name = withHash(name, raw);
    if (qualified.has(name)) continue;
    qualified.set(name, entry);
  }
  return qualified;
}
