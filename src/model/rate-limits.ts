/**
 * The account's rate limits as the Responses API reports them in response headers:
 * `x-codex-primary-*` and `x-codex-secondary-*` windows (used percent, window length in minutes,
 * reset time as Unix seconds or as seconds from now), `x-codex-credits-*` and
 * `x-codex-plan-type`. Another limit family (`x-codex-active-limit: codex_other`) uses the
 * prefix `x-codex-other-`. Absent or unreadable headers leave their field null.
 */
import type { CreditsSnapshot, RateLimitSnapshot, RateLimitWindow } from "../protocol/events.js";

export type HeaderBag = Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | null {
  const v = headers[name];
  const s = Array.isArray(v) ? v[0] : v;
  const t = s?.trim();
  return t ? t : null;
}

function numberHeader(headers: HeaderBag, name: string): number | null {
  const raw = header(headers, name);
  if (raw === null) return null;
  const n = Number(raw);
  return Number.isFinite(n) ? n : null;
}

function intHeader(headers: HeaderBag, name: string): number | null {
  const n = numberHeader(headers, name);
  return n === null ? null : Math.trunc(n);
}

function boolHeader(headers: HeaderBag, name: string): boolean | null {
  const raw = header(headers, name)?.toLowerCase();
  if (raw === "true" || raw === "1") return true;
  if (raw === "false" || raw === "0") return false;
  return null;
}

function window(headers: HeaderBag, prefix: string, nowSeconds: number): RateLimitWindow | null {
  const used = numberHeader(headers, `${prefix}-used-percent`);
  if (used === null) return null;
  const minutes = intHeader(headers, `${prefix}-window-minutes`);
  const after = intHeader(headers, `${prefix}-reset-after-seconds`);
  const resetsAt = intHeader(headers, `${prefix}-reset-at`) ?? (after !== null ? nowSeconds + after : null);
  // An all-zero window says nothing (the provider sends one when no limit applies).
  if (used === 0 && (minutes === null || minutes === 0) && resetsAt === null) return null;
  return { used_percent: used, window_minutes: minutes, resets_at: resetsAt };
}

function credits(headers: HeaderBag): CreditsSnapshot | null {
  const has = boolHeader(headers, "x-codex-credits-has-credits");
  const unlimited = boolHeader(headers, "x-codex-credits-unlimited");
  if (has === null || unlimited === null) return null;
  return { has_credits: has, unlimited, balance: header(headers, "x-codex-credits-balance") };
}

/** The snapshot in a response's headers, or null when it carries none. */
export function parseRateLimitHeaders(headers: HeaderBag, nowSeconds = Math.floor(Date.now() / 1000)): RateLimitSnapshot | null {
  const limitId = (header(headers, "x-codex-active-limit") ?? "codex").toLowerCase();
  const prefix = `x-${limitId.replace(/_/g, "-")}`;
  const snapshot: RateLimitSnapshot = {
    limit_id: limitId.replace(/-/g, "_"),
    limit_name: header(headers, `${prefix}-limit-name`),
    primary: window(headers, `${prefix}-primary`, nowSeconds),
    secondary: window(headers, `${prefix}-secondary`, nowSeconds),
    credits: credits(headers),
    plan_type: header(headers, "x-codex-plan-type"),
  };
  const empty = snapshot.primary === null && snapshot.secondary === null && snapshot.credits === null && snapshot.plan_type === null;
  return empty ? null : snapshot;
}

/**
 * A new snapshot over the previous one, as the reference merges them: the windows are replaced
 * as they come (a missing secondary clears it), while credits and the plan type stay as they
 * were when the update does not mention them.
 */
export function mergeRateLimits(previous: RateLimitSnapshot | null, update: RateLimitSnapshot): RateLimitSnapshot {
  return {
    ...update,
    credits: update.credits ?? previous?.credits ?? null,
    plan_type: update.plan_type ?? previous?.plan_type ?? null,
  };
}
