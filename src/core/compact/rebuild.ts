/**
 * The history a compaction leaves behind, in an order chosen for the prompt cache:
 *
 *   initial context (byte for byte as before) ─ user's recent messages ─ working state ─ summary
 *
 * The base instructions and the initial context open every request before and after, so the
 * provider's cached prefix still matches after a compaction; everything after it is new once and
 * then only grows by appends again. The user's own words are kept verbatim (newest first within
 * a budget), because a summary paraphrases and the task must not drift.
 */
import { userText, type ResponseItem } from "../../protocol/items.js";
import { COMPACTION_SUMMARY_PREFIX, isRealUserMessage } from "../../rollout/reconstruct.js";
import { approxTokenCount, truncateMiddle } from "../../exec/truncate.js";
import { isWorkingStateNote } from "./working-state.js";

/** The reference's cap on the user's messages kept verbatim. */
export const USER_MESSAGES_MAX_TOKENS = 20_000;

function firstText(item: ResponseItem): string | null {
  if (item.type !== "message") return null;
  const first = item.content[0];
  return first?.type === "input_text" ? first.text : null;
}

export function isSummaryMessage(item: ResponseItem): boolean {
  return item.type === "message" && item.role === "user" && (firstText(item)?.startsWith(COMPACTION_SUMMARY_PREFIX) ?? false);
}

/** A setting the harness told the model (permissions, environment) rather than conversation. */
function settingKind(item: ResponseItem): string | null {
  if (item.type !== "message") return null;
  if (item.role === "developer" || item.role === "system") return item.role;
  const text = firstText(item);
  if (item.role !== "user" || text === null) return null;
  const tag = /^<(environment_context|user_instructions)>/.exec(text.trimStart())?.[1];
  return tag ?? (text.startsWith("# AGENTS.md instructions") ? "agents_md" : null);
}

/** How many items open the history before the first message the user typed. */
export function contextPrefixLength(items: readonly ResponseItem[]): number {
  const firstUser = items.findIndex(isRealUserMessage);
  return firstUser === -1 ? items.length : firstUser;
}

/**
 * The context to keep: everything before the first message the user typed (the initial context,
 * unchanged), then the newest of each kind of setting update that came later (a new cwd or new
 * permissions), so the model keeps working under the settings in force.
 */
export function contextItems(items: readonly ResponseItem[]): ResponseItem[] {
  const prefixEnd = contextPrefixLength(items);
  const prefix = items.slice(0, prefixEnd).filter((i) => i.type === "message" && i.role !== "assistant" && !isWorkingStateNote(i) && !isSummaryMessage(i));
  const latest = new Map<string, ResponseItem>();
  for (const item of items.slice(prefixEnd)) {
    const kind = settingKind(item);
    if (kind !== null) latest.set(kind, item);
  }
  return [...prefix, ...latest.values()];
}

/** The texts of the messages the user typed, oldest first (summaries and harness context left out). */
export function collectUserMessages(items: readonly ResponseItem[]): string[] {
  return items.flatMap((i) =>
    isRealUserMessage(i) && i.type === "message"
      ? [i.content.map((c) => (c.type === "input_text" ? c.text : "")).join("")]
      : [],
  );
}

/**
 * The newest messages that fit `maxTokens`, oldest first; the one that crosses the budget is
 * kept in part (head and tail, with the reference's truncation marker), older ones are dropped.
 */
export function capUserMessages(messages: readonly string[], maxTokens: number): string[] {
  const kept: string[] = [];
  let left = maxTokens;
  for (let i = messages.length - 1; i >= 0 && left > 0; i--) {
    const text = messages[i] ?? "";
    const tokens = approxTokenCount(text);
    if (tokens <= left) {
      kept.push(text);
      left -= tokens;
    } else {
      kept.push(truncateMiddle(text, left).text);
      left = 0;
    }
  }
  return kept.reverse();
}

export interface CompactedParts {
  context: ResponseItem[];
  userMessages: string[];
  workingState: string | null;
  /** The summary's text, without the prefix. */
  summary: string;
}

export function buildCompactedHistory(parts: CompactedParts): ResponseItem[] {
  return [
    ...parts.context,
    ...parts.userMessages.map((m) => userText(m)),
    ...(parts.workingState !== null ? [userText(parts.workingState)] : []),
    userText(COMPACTION_SUMMARY_PREFIX + parts.summary),
  ];
}
