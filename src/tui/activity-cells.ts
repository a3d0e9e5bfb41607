/**
 * Cells for what the agent does besides answering and running commands: hosted web searches
 * (live while the provider searches, then what it searched), compactions of the conversation,
 * and the skills it can use. Pure functions of the event data, tested as text like cells.ts.
 */
import type { EventMsg } from "../protocol/events.js";
import type { WebSearchAction } from "../protocol/web-search.js";
import type { Theme } from "./parts/theme.js";
import { webSearchActionDetail } from "../protocol/web-search.js";
import { prefixed, printable, type CellStyle } from "./cells.js";
import type { TokenUsageInfo } from "../protocol/events.js";
import { contextText } from "./status-line.js";

/** A web search: `null` while it runs ("Searching the web…"), else what the finished call did. */
export function webSearchCell(done: { query: string; action: WebSearchAction } | null, s: CellStyle, width: number): string[] {
  const t = s.theme;
  if (done === null) return [`${t.fg("accent", "• ")}${t.bold("Searching the web…")}`, ""];
  // The event's query is the action's description already; fall back to it for older rollouts.
  const detail = printable(webSearchActionDetail(done.action) || done.query);
  // A find in a page reads "Searched 'pattern' in url".
  const verb = done.action.type === "open_page" ? "Opened" : "Searched";
  if (detail === "") return [`${t.fg("success", "• ")}${t.bold("Searched the web")}`, ""];
  return [...prefixed(`${t.fg("success", "• ")}${t.bold(verb)} `, "  ", detail, width), ""];
}

/**
 * The conversation was summarised. `before` is the usage the status line showed when the
 * compaction began: the cell repeats its figures, so the two can be compared.
 */
export function compactedCell(before: TokenUsageInfo | null, s: CellStyle, width: number): string[] {
  const t = s.theme;
  const was = before !== null && before.total_token_usage.total_tokens > 0 ? ` (before: ${contextText(before)})` : "";
  return [...prefixed(`${t.fg("success", "• ")}`, "  ", `${t.bold("Context compacted")}${t.dim(`${was}: the conversation so far is now a summary`)}`, width), ""];
}

/** `/skills`: each skill the session found (with its scope), then the files it could not read. */
export function skillsLines(msg: Extract<EventMsg, { type: "list_skills_response" }>, theme: Theme): string[] {
  const lines: string[] = [];
  for (const group of msg.skills) {
    for (const s of group.skills) lines.push(`$${s.name}  ${theme.dim(`${s.description} (${s.scope})`)}`);
    for (const e of group.errors) lines.push(theme.fg("warning", `${e.path}: ${e.message}`));
  }
  return lines.length > 0 ? [...lines, theme.dim("mention one with $name in a message")] : ["no skills found (SKILL.md files in $CODEX_HOME/skills or .codex/skills)"];
}
