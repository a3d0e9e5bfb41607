/**
 * Where MCP OAuth credentials live: `$CODEX_HOME/.credentials.json`, the reference's fallback
 * file, one JSON object keyed per server. The key is `<name>|<16 hex digits>`, the digits being
 * the start of the SHA-256 of `{"type":"http","url":<url>,"headers":{}}`, so two servers that
 * share a name but not a URL never read each other's tokens (and a changed URL means a new
 * login). The file is written whole to a temporary file with mode 0600 and renamed over the old
 * one, so a crash never leaves half a file, and it is removed when its last entry goes.
 *
 * The reference prefers the OS keyring. codex-ts has no keyring binding (every Node keyring
 * library needs a native module), so `auto` means the file, and `keyring` means the file after a
 * warning. Entries carry the reference's fields (with `issuer`) plus a few of ours
 * (`client_secret`, `token_endpoint_auth_method`, `token_type`) that a refresh needs; the
 * reference ignores fields it does not know.
 */
import { createHash } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { readTextFile } from "../../util/bounded-read.js";
import { join } from "node:path";
import type { OAuthCredentialsStoreMode } from "../../config/mcp.js";
import { PRIVATE_DIR_MODE, writeFileAtomic } from "../../util/atomic-write.js";
import { errorCode, errorMessage } from "../../util/errors.js";

export const CREDENTIALS_FILE = ".credentials.json";
/** Tokens this close to expiry are refreshed before use (the reference's margin). */
export const REFRESH_SKEW_MS = 30_000;

export interface StoredOAuthEntry {
  server_name: string;
  server_url: string;
  client_id: string;
  access_token: string;
  /** Milliseconds since the epoch; null when the server gave no lifetime. */
  expires_at: number | null;
  refresh_token: string | null;
  scopes: string[];
  client_secret?: string;
  token_endpoint_auth_method?: string;
  /** The authorization server the client and tokens belong to (the MCP SDK binds them to it). */
  issuer?: string;
  token_type?: string;
}

type CredentialsFile = Record<string, StoredOAuthEntry>;

export class CredentialsStoreError extends Error {}

/** The reference's store key for a server. */
export function storeKey(serverName: string, serverUrl: string): string {
  const identity = JSON.stringify({ type: "http", url: serverUrl, headers: {} });
  return `${serverName}|${createHash("sha256").update(identity).digest("hex").slice(0, 16)}`;
}

const warned = new Set<string>();

export class OAuthCredentialsStore {
  readonly path: string;

  constructor(
    codexHome: string,
    mode: OAuthCredentialsStoreMode = "auto",
    warn: (text: string) => void = (text) => process.stderr.write(`${text}\n`),
  ) {
    this.path = join(codexHome, CREDENTIALS_FILE);
    if (mode === "keyring" && !warned.has(this.path)) {
      warned.add(this.path);
      warn(`warning: mcp_oauth_credentials_store = "keyring": codex-ts has no OS keyring support; MCP OAuth tokens are kept in ${this.path} (mode 0600)`);
    }
  }

  load(serverName: string, serverUrl: string): StoredOAuthEntry | null {
    const key = storeKey(serverName, serverUrl);
    const file = this.read();
    // Match on what each entry says, as the reference does, so a key written by another
    // program with the same identity still counts.
    for (const entry of Object.values(file)) {
      if (isEntry(entry) && storeKey(entry.server_name, entry.server_url) === key) return entry;
    }
    return null;
  }

  save(entry: StoredOAuthEntry): void {
    const file = this.read();
    file[storeKey(entry.server_name, entry.server_url)] = entry;
    this.write(file);
  }

  /** true when there was something to remove. */
  delete(serverName: string, serverUrl: string): boolean {
    const key = storeKey(serverName, serverUrl);
    const file = this.read();
    const keys = Object.keys(file).filter((k) => {
      const entry = file[k];
      return k === key || (isEntry(entry) && storeKey(entry.server_name, entry.server_url) === key);
    });
    if (keys.length === 0) return false;
    for (const k of keys) delete file[k];
    this.write(file);
    return true;
  }

  private read(): CredentialsFile {
    let text: string;
    try {
      text = readTextFile(this.path);
    } catch (err) {
      if (errorCode(err) === "ENOENT") return {};
      throw new CredentialsStoreError(`failed to read credentials file at ${this.path}: ${errorMessage(err)}`);
    }
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("not a JSON object");
      return parsed as CredentialsFile;
    } catch (err) {
      throw new CredentialsStoreError(`failed to parse credentials file at ${this.path}: ${errorMessage(err)}`);
    }
  }

  private write(file: CredentialsFile): void {
    if (Object.keys(file).length === 0) {
      rmSync(this.path, { force: true });
      return;
    }
    const dir = join(this.path, "..");
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    try {
      writeFileAtomic(this.path, JSON.stringify(file), 0o600);
    } catch (err) {
      throw new CredentialsStoreError(`failed to write credentials file at ${this.path}: ${errorMessage(err)}`);
    }
  }
}

function isEntry(value: unknown): value is StoredOAuthEntry {
  if (typeof value !== "object" || value === null) return false;
  const entry = value as Partial<StoredOAuthEntry>;
  return typeof entry.server_name === "string" && typeof entry.server_url === "string";
}

/** Expired, or within the refresh margin of expiring. An unknown expiry never counts. */
export function needsRefresh(entry: Pick<StoredOAuthEntry, "expires_at">, now = Date.now()): boolean {
  return entry.expires_at !== null && now + REFRESH_SKEW_MS >= entry.expires_at;
}

/** Usable without a new login: a live access token, or a refresh token for an expiring one (the reference's test). */
export function entryUsable(entry: StoredOAuthEntry, now = Date.now()): boolean {
  if (entry.client_id.trim() === "") return false;
  if (needsRefresh(entry, now)) return (entry.refresh_token ?? "").trim() !== "";
  return entry.access_token.trim() !== "";
}
