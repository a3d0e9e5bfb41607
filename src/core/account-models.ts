/**
 * The models a ChatGPT account may use, as the Codex backend lists them: `GET
 * <backend>/models?client_version=<version>` with the login's headers, cached in
 * `$CODEX_HOME/models_cache.json` in the reference's shape (`fetched_at`, `etag`,
 * `client_version`, `models` as received) for the reference's five minutes.
 *
 * Unlike the reference, which waits for the list at every start, this keeps the network off the
 * start-up path where it can: a fresh cache is used as it is; a stale one is used while a
 * background request (which never holds the process open) refreshes it for the next run; only
 * with no cache at all (the first run in a CODEX_HOME, or after another account signed in) is
 * the list awaited, for at most two seconds. Any failure leaves the built-in defaults in place, with one note on
 * NODE_DEBUG=codex-ts and nothing else.
 */
import { readTextFile } from "../util/bounded-read.js";
import { join } from "node:path";
import { debuglog } from "node:util";
import { getJson } from "../auth/auth-http.js";
import { writeFileAtomic } from "../util/atomic-write.js";
import type { Config } from "../config/load-config.js";
import { errorMessage } from "../util/errors.js";

export const MODELS_CACHE_FILE = "models_cache.json";
/** The reference's cache lifetime. */
export const MODELS_CACHE_TTL_MS = 5 * 60_000;
/** How long a start without any cache waits for the list before going on with the built-in default. */
const AWAITED_FETCH_TIMEOUT_MS = 2_000;
/** The reference's limit for one models request, used for background refreshes. */
const BACKGROUND_FETCH_TIMEOUT_MS = 5_000;

const debug = debuglog("codex-ts");

/** What codex-ts reads from one entry of the list. */
export interface AccountModel {
  slug: string;
  /** Lower comes first; the reference defaults to the first model shown in its picker. */
  priority: number;
  /** Shown in the picker ("list") or not ("hide", "none"). */
  listed: boolean;
}

export interface AccountModelsRequest {
  codexHome: string;
  /** The backend's base URL for this login (`…/backend-api/codex`). */
  baseUrl: string;
  clientVersion: string;
  /** The login's account, so a cache written for another account is not used. */
  accountId: string | null;
  /** Every header of the request: credentials, originator, User-Agent, version. */
  headers: () => Promise<Record<string, string>>;
  env: NodeJS.ProcessEnv;
}

/** The account's models, or null when none are known yet (offline, failed, or fetched in the background). */
export async function accountModels(req: AccountModelsRequest): Promise<AccountModel[] | null> {
  const cached = readCache(req);
  if (!cached) return fetchAndCache(req, AWAITED_FETCH_TIMEOUT_MS, false);
  if (Date.now() - cached.fetchedAt > MODELS_CACHE_TTL_MS) void fetchAndCache(req, BACKGROUND_FETCH_TIMEOUT_MS, true);
  return cached.models;
}

/** The reference's default: the first model its picker shows, by priority. */
export function defaultAccountModel(models: AccountModel[]): string | null {
  const listed = models.filter((m) => m.listed).sort((a, b) => a.priority - b.priority);
  return listed[0]?.slug ?? null;
}

/**
 * The config as the account's models settle it: the account's default when the user chose no
 * model, else the user's model with a warning when the account does not list it.
 */
export function settleModel(config: Config, models: AccountModel[] | null): { config: Config; warning: string | null } {
  if (!models) return { config, warning: null };
  if (config.modelChosen) return { config, warning: unknownModelWarning(config.model, models) };
  const slug = defaultAccountModel(models);
  return { config: slug ? { ...config, model: slug } : config, warning: null };
}

/** A warning when the chosen model is not one the account lists; null when it is. */
export function unknownModelWarning(model: string, models: AccountModel[]): string | null {
  if (models.length === 0 || models.some((m) => m.slug === model)) return null;
  const offered = models.filter((m) => m.listed).map((m) => m.slug);
  const list = offered.length > 0 ? ` (it offers ${offered.join(", ")})` : "";
  return `Model "${model}" is not among the models your ChatGPT account may use${list}; requests with it may be refused.`;
}

interface CacheFile {
  fetched_at?: unknown;
  etag?: unknown;
  client_version?: unknown;
  account_id?: unknown;
  models?: unknown;
}

function cachePath(codexHome: string): string {
  return join(codexHome, MODELS_CACHE_FILE);
}

function readCache(req: AccountModelsRequest): { fetchedAt: number; models: AccountModel[] } | null {
  let parsed: CacheFile;
  try {
    parsed = JSON.parse(readTextFile(cachePath(req.codexHome))) as CacheFile;
  } catch {
    return null; // None yet, or unreadable: fetched again.
  }
  // Lists depend on the client version (the backend filters by it) and on the account.
  if (parsed.client_version !== req.clientVersion) return null;
  if (typeof parsed.account_id === "string" && parsed.account_id !== req.accountId) return null;
  const fetchedAt = typeof parsed.fetched_at === "string" ? Date.parse(parsed.fetched_at) : NaN;
  const models = parseModels(parsed.models);
  if (Number.isNaN(fetchedAt) || models === null) return null;
  return { fetchedAt, models };
}

async function fetchAndCache(req: AccountModelsRequest, timeoutMs: number, background: boolean): Promise<AccountModel[] | null> {
  try {
    const url = new URL(`${req.baseUrl.replace(/\/+$/, "")}/models`);
    url.searchParams.set("client_version", req.clientVersion);
    const res = await getJson(url.toString(), req.env, { headers: await req.headers(), timeoutMs, unref: background });
    if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
    const raw = (JSON.parse(res.text) as { models?: unknown }).models;
    const models = parseModels(raw);
    if (models === null) throw new Error("the answer holds no model list");
    try {
      writeCache(req, raw as unknown[], res.etag);
    } catch (err) {
      debug("the model list could not be cached: %s", errorMessage(err));
    }
    return models;
  } catch (err) {
    debug("the account's model list could not be fetched (%s); using the built-in defaults", errorMessage(err));
    return null;
  }
}

/** The entries kept verbatim, so the reference can read a cache codex-ts wrote. */
function writeCache(req: AccountModelsRequest, models: unknown[], etag: string | null): void {
  const body = {
    fetched_at: new Date().toISOString(),
    ...(etag ? { etag } : {}),
    client_version: req.clientVersion,
    ...(req.accountId ? { account_id: req.accountId } : {}),
    models,
  };
  // Not secret (model names), so readable as a file written with the usual umask would be.
  writeFileAtomic(cachePath(req.codexHome), `${JSON.stringify(body, null, 2)}\n`, 0o644);
}

function parseModels(raw: unknown): AccountModel[] | null {
  if (!Array.isArray(raw)) return null;
  const models: AccountModel[] = [];
  for (const entry of raw) {
    if (typeof entry !== "object" || entry === null) continue;
    const { slug, priority, visibility } = entry as { slug?: unknown; priority?: unknown; visibility?: unknown };
    if (typeof slug !== "string" || slug === "") continue;
    models.push({ slug, priority: typeof priority === "number" ? priority : Number.MAX_SAFE_INTEGER, listed: visibility === "list" });
  }
  return models;
}
