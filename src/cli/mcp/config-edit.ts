/**
 * Adds and removes one `[mcp_servers.<name>]` table in config.toml text without touching
 * anything else: comments, blank lines, key order and every other table stay byte for byte.
 *
 * A new server is written as a table block appended at the end of the file (`[mcp_servers.NAME]`,
 * then `[mcp_servers.NAME.env]` when it has env vars, or `[mcp_servers.NAME.oauth]` for a
 * pre-registered OAuth client). Removal deletes exactly the lines of the
 * server's tables (header through its last key; comments after the last key are left, since they
 * usually describe what follows) and of any `mcp_servers.NAME…` keys written elsewhere (dotted
 * keys, `NAME = { … }` under `[mcp_servers]`). Every edit is checked by parsing the result: when
 * the line edit does not give exactly the intended data (an unusual layout, such as the whole
 * `mcp_servers` written as one inline table), toml-patch's structural patch is used instead, and
 * that result is checked the same way.
 */
import { parseDocument } from "@decimalturn/toml-patch";
import { tomlKey, tomlString } from "../../util/toml-text.js";
import { isTable } from "../../config/schema.js";
import {
  appendBlock,
  ConfigEditError,
  isBlank,
  parseConfigText,
  patchedOrFail as patchRootOrFail,
  sameConfig as sameData,
  splitLines,
} from "../../config/toml-edit.js";

export { ConfigEditError, parseConfigText };

export type NewServer =
  | { transport: "stdio"; command: string; args: string[]; env: Record<string, string> }
  | { transport: "streamable_http"; url: string; bearerTokenEnvVar: string | null; oauthResource?: string | null; oauth?: NewOAuthClient | null };

/** A pre-registered OAuth client (`mcp add --oauth-client-id`), written as `[mcp_servers.NAME.oauth]`. */
export interface NewOAuthClient {
  clientId: string;
  clientSecret: string | null;
  callbackUrl: string;
}

function oauthTable(client: NewOAuthClient): Table {
  return { client_id: client.clientId, ...(client.clientSecret !== null ? { client_secret: client.clientSecret } : {}), callback_url: client.callbackUrl };
}

type Table = Record<string, unknown>;

/** The server as config data (what the written table parses to). */
export function serverTable(server: NewServer): Table {
  if (server.transport === "stdio") {
    const table: Table = { command: server.command };
    if (server.args.length > 0) table.args = [...server.args];
    if (Object.keys(server.env).length > 0) table.env = { ...server.env };
    return table;
  }
  const table: Table = { url: server.url };
  if (server.bearerTokenEnvVar !== null) table.bearer_token_env_var = server.bearerTokenEnvVar;
  if (server.oauthResource) table.oauth_resource = server.oauthResource;
  if (server.oauth) table.oauth = oauthTable(server.oauth);
  return table;
}

/** The table block for `name`, one string per line (no line endings). */
export function serverBlock(name: string, server: NewServer): string[] {
  const header = `mcp_servers.${tomlKey(name)}`;
  const lines = [`[${header}]`];
  if (server.transport === "stdio") {
    lines.push(`command = ${tomlString(server.command)}`);
    if (server.args.length > 0) lines.push(`args = [${server.args.map(tomlString).join(", ")}]`);
    const env = Object.keys(server.env).sort();
    if (env.length > 0) {
      lines.push("", `[${header}.env]`);
      for (const key of env) lines.push(`${tomlKey(key)} = ${tomlString(server.env[key] ?? "")}`);
    }
  } else {
    lines.push(`url = ${tomlString(server.url)}`);
    if (server.bearerTokenEnvVar !== null) lines.push(`bearer_token_env_var = ${tomlString(server.bearerTokenEnvVar)}`);
    if (server.oauthResource) lines.push(`oauth_resource = ${tomlString(server.oauthResource)}`);
    if (server.oauth) {
      // The reference's layout: the client's own table after the server's keys.
      lines.push("", `[${header}.oauth]`);
      for (const [key, value] of Object.entries(oauthTable(server.oauth))) lines.push(`${key} = ${tomlString(value as string)}`);
    }
  }
  return lines;
}

export function serverNames(config: Table): string[] {
  const servers = config.mcp_servers;
  return isTable(servers) ? Object.keys(servers) : [];
}

/** `text` with server `name` removed; `removed` is false (and `text` unchanged) when absent. */
export function removeServer(text: string, name: string): { text: string; removed: boolean } {
  const before = parseConfigText(text);
  if (!serverNames(before).includes(name)) return { text, removed: false };
  const expected = (): Table => {
    const table = parseConfigText(text);
    delete (table.mcp_servers as Table)[name];
    return table;
  };
  const edited = removeServerLines(text, name);
  if (edited !== null && sameConfig(edited, expected())) return { text: edited, removed: true };
  return { text: patchedOrFail(text, (obj) => delete obj[name], expected()), removed: true };
}

/** `text` with server `name` set to `server` (replacing any server of that name). */
export function addServer(text: string, name: string, server: NewServer): string {
  parseConfigText(text);
  const expected = (): Table => {
    const table = parseConfigText(text);
    const servers = isTable(table.mcp_servers) ? table.mcp_servers : (table.mcp_servers = {});
    (servers as Table)[name] = serverTable(server);
    return table;
  };
  const base = removeServer(text, name).text;
  const edited = appendBlock(base, serverBlock(name, server));
  if (sameConfig(edited, expected())) return edited;
  return patchedOrFail(text, (obj) => (obj[name] = serverTable(server)), expected());
}

/** The structural patch on `[mcp_servers]`, for layouts the line edit does not handle. */
function patchedOrFail(text: string, change: (servers: Table) => unknown, expected: Table): string {
  return patchRootOrFail(
    text,
    (root) => {
      const servers = isTable(root.mcp_servers) ? root.mcp_servers : (root.mcp_servers = {});
      change(servers as Table);
    },
    expected,
    dropEmptyServers,
  );
}

function sameConfig(text: string, expected: Table): boolean {
  return sameData(text, expected, dropEmptyServers);
}

/** An emptied `[mcp_servers]` and no `mcp_servers` at all mean the same thing. */
function dropEmptyServers(table: Table): Table {
  if (isTable(table.mcp_servers) && Object.keys(table.mcp_servers).length === 0) delete table.mcp_servers;
  return table;
}

type Cst = ReturnType<typeof parseDocument>["cst"];
type Block = Cst[number];

interface Span {
  /** 1-based, inclusive. */
  start: number;
  end: number;
  table: boolean;
}

const startsWith = (path: readonly string[], prefix: readonly string[]): boolean =>
  path.length >= prefix.length && prefix.every((p, i) => path[i] === p);

/** The lines defining server `name`, or null when some of it sits inside a larger value. */
function serverSpans(text: string, name: string): Span[] | null {
  const target = ["mcp_servers", name];
  const spans: Span[] = [];
  let unsupported = false;
  const keyValue = (path: string[], start: number, end: number): void => {
    if (startsWith(path, target)) spans.push({ start, end, table: false });
    else if (startsWith(target, path)) unsupported = true; // e.g. mcp_servers = { NAME = … }
  };
  const cst: Cst = parseDocument(text).cst;
  for (const block of cst as Block[]) {
    if ("items" in block) {
      const path = block.key.item.value;
      if (startsWith(path, target)) {
        let end = block.loc.start.line;
        for (const item of block.items) if ("value" in item) end = Math.max(end, item.loc.end.line);
        spans.push({ start: block.loc.start.line, end, table: true });
        continue;
      }
      for (const item of block.items) {
        if ("value" in item) keyValue([...path, ...item.key.value], item.loc.start.line, item.loc.end.line);
      }
    } else if ("value" in block && "key" in block) {
      keyValue(block.key.value, block.loc.start.line, block.loc.end.line);
    }
  }
  return unsupported ? null : spans;
}

function removeServerLines(text: string, name: string): string | null {
  let spans: Span[] | null;
  try {
    spans = serverSpans(text, name);
  } catch {
    return null;
  }
  if (spans === null || spans.length === 0) return null;
  const { lines, final } = splitLines(text);
  const drop = new Set<number>(); // 0-based line indexes
  for (const span of spans) for (let i = span.start - 1; i <= span.end - 1; i++) drop.add(i);
  // Tables of the server separated only by blank lines form one block (e.g. NAME and NAME.env).
  const tables: Span[] = [];
  for (const span of spans.filter((s) => s.table).sort((a, b) => a.start - b.start)) {
    const prev = tables[tables.length - 1];
    if (prev && lines.slice(prev.end, span.start - 1).every(isBlank)) {
      for (let i = prev.end; i < span.start - 1; i++) drop.add(i);
      prev.end = Math.max(prev.end, span.end);
    } else {
      tables.push({ ...span });
    }
  }
  for (const span of tables) {
    const first = span.start - 1;
    const last = span.end - 1;
    const restBlank = lines.slice(last + 1).every((l, i) => isBlank(l) || drop.has(last + 1 + i));
    if (restBlank) {
      // The block was last: take the blank lines that separated it from what came before.
      for (let i = first - 1; i >= 0 && isBlank(lines[i]) && !drop.has(i); i--) drop.add(i);
      for (let i = last + 1; i < lines.length; i++) drop.add(i);
    } else if (isBlank(lines[last + 1]) && (first === 0 || isBlank(lines[first - 1]))) {
      drop.add(last + 1);
    }
  }
  const kept = lines.filter((_, i) => !drop.has(i));
  return kept.length === 0 ? "" : kept.join("\n") + (final ? "\n" : "");
}
