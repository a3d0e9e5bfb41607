/**
 * What `/status` prints: the session's settings (model, provider and effort, policies, the
 * AGENTS.md files the agent follows, id, session file),
 * the tokens used and the context left, and the account's rate-limit windows as the latest
 * `token_count` reported them (how much of each window is used and when it resets).
 */
import type { RateLimitSnapshot, RateLimitWindow, TokenUsage, TokenUsageInfo } from "../protocol/events.js";
import type { HeaderInfo } from "./cells.js";
import { contextText } from "./status-line.js";

export interface StatusFacts {
  header: HeaderInfo | null;
  rolloutPath: string | null;
  totals: TokenUsage | null;
  usage: TokenUsageInfo | null;
  rateLimits: RateLimitSnapshot | null;
  /** Unix seconds, for "resets in". */
  now: number;
  /** The model provider's name. */
  provider?: string;
  /** The AGENTS.md files whose instructions the agent has, in the order it reads them. */
  agentsFiles?: string[];
}

const n = (v: number): string => v.toLocaleString("en-US");

export function statusReport(f: StatusFacts): string[] {
  const h = f.header;
  if (!h) return ["the session has not started yet"];
  const lines = [
    `model:      ${h.model} (effort ${h.effort ?? "the model's default"})`,
    ...(f.provider ? [`provider:   ${f.provider}`] : []),
    `directory:  ${h.cwd}`,
    ...agentsLines(f.agentsFiles),
    `approval:   ${h.approval}`,
    `sandbox:    ${h.sandbox.type}`,
    `session:    ${h.sessionId}`,
    `rollout:    ${f.rolloutPath ?? "none (ephemeral)"}`,
  ];
  if (f.totals) lines.push(`tokens:     ${n(f.totals.total_tokens)} used (input ${n(f.totals.input_tokens)}, output ${n(f.totals.output_tokens)})`);
  if (f.usage) lines.push(`context:    ${contextText(f.usage)}`);
  lines.push(...rateLimitLines(f.rateLimits, f.now));
  return lines;
}

function agentsLines(files: string[] | undefined): string[] {
  if (files === undefined) return [];
  if (files.length === 0) return ["AGENTS.md:  none"];
  return files.map((file, i) => `${i === 0 ? "AGENTS.md:" : "          "}  ${file}`);
}

/** One line per window ("5h limit: 25% used, resets in 3h 12m"), then credits and plan. */
export function rateLimitLines(limits: RateLimitSnapshot | null, now: number): string[] {
  if (!limits) return [];
  const lines: string[] = [];
  for (const w of [limits.primary, limits.secondary]) {
    if (w) lines.push(`${`${windowName(w)}:`.padEnd(11)} ${usedBar(w.used_percent)} ${Math.round(w.used_percent)}% used${resetsIn(w, now)}`);
  }
  const c = limits.credits;
  if (c && (c.has_credits || c.unlimited)) lines.push(`credits:    ${c.unlimited ? "unlimited" : (c.balance ?? "available")}`);
  if (limits.plan_type) lines.push(`plan:       ${limits.plan_type}`);
  return lines;
}

function windowName(w: RateLimitWindow): string {
  const m = w.window_minutes;
  if (m === null) return "limit";
  if (m === 10_080) return "weekly";
  if (m % 1440 === 0) return `${m / 1440}d limit`;
  if (m % 60 === 0) return `${m / 60}h limit`;
  return `${m}m limit`;
}

function usedBar(percent: number): string {
  const filled = Math.max(0, Math.min(10, Math.round(percent / 10)));
  return `[${"█".repeat(filled)}${"░".repeat(10 - filled)}]`;
}

function resetsIn(w: RateLimitWindow, now: number): string {
  if (w.resets_at === null) return "";
  const secs = Math.max(0, Math.round(w.resets_at - now));
  const d = Math.floor(secs / 86_400);
  const h = Math.floor((secs % 86_400) / 3600);
  const m = Math.floor((secs % 3600) / 60);
  const text = d > 0 ? `${d}d ${h}h` : h > 0 ? `${h}h ${m}m` : `${m}m`;
  return `, resets in ${text}`;
}
