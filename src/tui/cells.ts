/**
 * History cells: what each part of the conversation looks like, as lines at a given width.
 * Pure functions of the event data and the theme, so they are tested as text and cost nothing
 * once committed to scrollback. The same functions draw the live region (a command still
 * running, the unfinished paragraph of an answer) and a resumed session's redraw.
 */
import type { MarkdownTheme } from "@mariozechner/pi-tui";
import { wrapTextWithAnsi, visibleWidth } from "./pi-tui.js";
import { markdownLines, trimPadding } from "./markdown-lines.js";
import { stripAnsi, type Theme } from "./parts/theme.js";
import type { EventMsg, FileChange, PlanItem, TokenUsage } from "../protocol/events.js";
import type { McpInvocation, McpToolCallOutcome, EventDuration } from "../protocol/mcp-events.js";
import type { AskForApproval, ReasoningEffort, SandboxPolicy } from "../protocol/policy.js";
import { displayCommand } from "../presentation/command-text.js";

/** Renders one file's change as coloured diff lines (the patch cell and the patch overlay). */
export type DiffRenderer = (path: string, change: FileChange, width: number) => string[];

export interface CellStyle {
  theme: Theme;
  markdown: MarkdownTheme;
  diff: DiffRenderer;
}

/** Lines of `text` wrapped to `width`, every line after the first indented like the first's body. */
export function prefixed(first: string, rest: string, text: string, width: number): string[] {
  const inner = Math.max(10, width - visibleWidth(first));
  const out: string[] = [];
  for (const line of wrapTextWithAnsi(text, inner)) out.push((out.length === 0 ? first : rest) + line);
  return out.length === 0 ? [first] : out;
}

export function markdownTheme(t: Theme): MarkdownTheme {
  return {
    heading: (s) => t.bold(t.fg("heading", s)),
    link: (s) => t.fg("link", s),
    linkUrl: (s) => t.dim(s),
    code: (s) => t.fg("code", s),
    codeBlock: (s) => s,
    codeBlockBorder: (s) => t.dim(s),
    quote: (s) => t.italic(s),
    quoteBorder: (s) => t.dim(s),
    hr: (s) => t.dim(s),
    listBullet: (s) => t.fg("accent", s),
    bold: (s) => t.bold(s),
    italic: (s) => t.italic(s),
    strikethrough: (s) => t.strike(s),
    underline: (s) => t.underline(s),
  };
}

export interface HeaderInfo {
  version: string;
  model: string;
  effort: ReasoningEffort | null;
  cwd: string;
  approval: AskForApproval;
  sandbox: SandboxPolicy;
  sessionId: string;
  /** What the project's trust means here (e.g. that edits inside it run without asking). */
  trust?: string | null;
}

/** What the header shows of a session_configured event. */
export function headerInfo(msg: Extract<EventMsg, { type: "session_configured" }>, version: string): HeaderInfo {
  return { version, model: msg.model, effort: msg.reasoning_effort, cwd: msg.cwd, approval: msg.approval_policy, sandbox: msg.sandbox_policy, sessionId: msg.session_id };
}

export function headerCell(h: HeaderInfo, s: CellStyle, width: number): string[] {
  const t = s.theme;
  const home = process.env.HOME;
  const cwd = home && h.cwd.startsWith(home) ? `~${h.cwd.slice(home.length)}` : h.cwd;
  const rows = [
    `${t.bold("codex-ts")} ${t.dim(`v${h.version}`)}`,
    "",
    `${t.dim("model:    ")} ${h.model}${h.effort ? ` ${t.dim(h.effort)}` : ""}   ${t.dim("/model to change")}`,
    `${t.dim("directory:")} ${cwd}`,
    `${t.dim("approval: ")} ${h.approval}   ${t.dim("sandbox:")} ${h.sandbox.type}`,
    ...(h.trust ? [t.dim(h.trust)] : []),
  ];
  const inner = Math.min(width - 4, Math.max(...rows.map((r) => visibleWidth(r))));
  const top = t.dim(`╭${"─".repeat(inner + 2)}╮`);
  const bottom = t.dim(`╰${"─".repeat(inner + 2)}╯`);
  const body = rows.map((r) => {
    const fitted = visibleWidth(r) > inner ? wrapTextWithAnsi(r, inner)[0] ?? "" : r;
    return `${t.dim("│")} ${fitted}${" ".repeat(Math.max(0, inner - visibleWidth(fitted)))} ${t.dim("│")}`;
  });
  return [top, ...body, bottom, ""];
}

/** Text from the model or the user without control characters (escape sequences would move our cursor). */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\t/g, "    ").replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "");
}

/** Erases the rest of the row in the current background: the tint reaches the edge without padding. */
const ERASE_TO_END = "\x1b[K";

export function userCell(message: string, s: CellStyle, width: number): string[] {
  const lines: string[] = [];
  printable(message).split("\n").forEach((para, i) => {
    lines.push(...prefixed(i === 0 ? s.theme.bold(s.theme.fg("accent", "› ")) : "  ", "  ", para, width));
  });
  return [...lines.map((l) => s.theme.bg("userMessage", l + ERASE_TO_END)), ""];
}

/** An agent message as markdown, with a bullet in the left margin. */
export function agentCell(markdown: string, s: CellStyle, width: number, first = true): string[] {
  const body = markdownLines(printable(markdown), s.markdown, Math.max(10, width - 2));
  return [...body.map((l, i) => trimPadding((i === 0 && first ? s.theme.fg("muted", "• ") : "  ") + l)), ""];
}

export function reasoningCell(text: string, s: CellStyle, width: number): string[] {
  const t = s.theme;
  const body = markdownLines(printable(text), s.markdown, Math.max(10, width - 2), { italic: true, color: (x) => t.dim(x) });
  return [...body.map((l, i) => trimPadding((i === 0 ? t.dim("• ") : "  ") + l)), ""];
}

export function formatDuration(d: EventDuration | number): string {
  const ms = typeof d === "number" ? d : d.secs * 1000 + Math.round(d.nanos / 1e6);
  if (ms < 1000) return `${ms}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const m = Math.floor(ms / 60_000);
  return `${m}m ${String(Math.floor((ms % 60_000) / 1000)).padStart(2, "0")}s`;
}

/**
 * The last `max` lines of command output as plain text: what a terminal would show of a line
 * rewritten with `\r` (a progress bar), without escape sequences or control characters, which
 * would otherwise move our cursor, and with tabs expanded, whose width the terminal decides.
 */
export function outputTail(output: string, max: number): string[] {
  const lines = output.replace(/\r\n/g, "\n").replace(/\n+$/, "").split("\n");
  if (lines.length === 1 && lines[0] === "") return [];
  return lines.slice(-max).map(plainLine);
}

function plainLine(line: string): string {
  return printable(stripAnsi(line.slice(line.lastIndexOf("\r") + 1)));
}

export interface CommandView {
  command: string[];
  output: string;
  /** null while it runs. */
  exitCode: number | null;
  /** The turn ended while it ran (its end never came). */
  interrupted?: boolean;
  duration: EventDuration | null;
  userShell: boolean;
}

/** A command: what ran, the tail of its output, and how it ended. */
export function commandCell(c: CommandView, s: CellStyle, width: number, tailLines = 5): string[] {
  const t = s.theme;
  const running = c.exitCode === null;
  const bullet = running ? t.fg("accent", "• ") : c.exitCode === 0 ? t.fg("success", "• ") : t.fg("error", "• ");
  const verb = running ? (c.userShell ? "Running (you)" : "Running") : c.userShell ? "You ran" : "Ran";
  const lines = prefixed(`${bullet}${t.bold(verb)} `, "  │ ", displayCommand(c.command), width);
  const tail = outputTail(c.output, tailLines);
  const all = c.output === "" ? 0 : c.output.replace(/\n+$/, "").split("\n").length;
  if (all > tail.length) lines.push(t.dim(`  │ … ${count(all - tail.length, "earlier line")}`));
  for (const l of tail) lines.push(t.dim(`  │ ${l}`).slice(0, width * 4));
  // What the model was told about a silent command (chunk id, wall time…) is not for the user.
  if (!running && tail.length === 0) lines.push(t.dim("  │ (no output)"));
  if (!running) {
    const status = c.interrupted ? t.fg("error", "■ interrupted") : c.exitCode === 0 ? t.fg("success", "✓") : t.fg("error", `✗ exit ${c.exitCode}`);
    lines.push(`  └ ${status}${c.duration ? t.dim(` · ${formatDuration(c.duration)}`) : ""}`);
  }
  lines.push("");
  return lines;
}

export { displayCommand } from "../presentation/command-text.js";

export function patchCell(changes: Record<string, FileChange>, status: "applied" | "failed" | "pending", s: CellStyle, width: number): string[] {
  const t = s.theme;
  const files = Object.keys(changes);
  const title = status === "failed" ? t.fg("error", "Patch failed") : status === "pending" ? "Proposed edit" : "Edited";
  const lines = [`${t.fg(status === "failed" ? "error" : "success", "• ")}${t.bold(title)} ${count(files.length, "file")}`];
  for (const path of files) {
    const change = changes[path];
    if (change) lines.push(...s.diff(path, change, width - 2).map((l) => `  ${l}`));
  }
  lines.push("");
  return lines;
}

export function mcpCallCell(inv: McpInvocation, result: McpToolCallOutcome | null, duration: EventDuration | null, s: CellStyle, width: number): string[] {
  const t = s.theme;
  const args = inv.arguments === null || inv.arguments === undefined ? "" : JSON.stringify(inv.arguments);
  const failed = result !== null && ("Err" in result || result.Ok.isError === true);
  const bullet = result === null ? t.fg("accent", "• ") : failed ? t.fg("error", "• ") : t.fg("success", "• ");
  const lines = prefixed(`${bullet}${t.bold(result === null ? "Calling" : "Called")} `, "  ", `${inv.server}.${inv.tool}(${args})`, width);
  if (result !== null) {
    const text = "Err" in result ? result.Err : mcpResultText(result.Ok.content);
    for (const l of outputTail(text, 5)) lines.push(t.dim(`  │ ${l}`));
    lines.push(`  └ ${failed ? t.fg("error", "✗ failed") : t.fg("success", "✓")}${duration ? t.dim(` · ${formatDuration(duration)}`) : ""}`);
  }
  lines.push("");
  return lines;
}

function mcpResultText(content: unknown[]): string {
  return content
    .map((c) => {
      const part = c as { type?: string; text?: string };
      return part.type === "text" && typeof part.text === "string" ? part.text : `[${part.type ?? "content"}]`;
    })
    .join("\n");
}

export function planCell(explanation: string | null, plan: PlanItem[], s: CellStyle, width: number): string[] {
  const t = s.theme;
  const lines = [`${t.fg("accent", "• ")}${t.bold("Updated plan")}`];
  if (explanation) lines.push(...prefixed("  ", "  ", t.italic(explanation), width));
  for (const item of plan) {
    const mark = item.status === "completed" ? t.fg("success", "✔") : item.status === "in_progress" ? t.fg("accent", "◐") : t.dim("□");
    const step = item.status === "completed" ? t.dim(t.strike(item.step)) : item.status === "in_progress" ? t.bold(item.step) : item.step;
    lines.push(...prefixed(`  ${mark} `, "    ", step, width));
  }
  lines.push("");
  return lines;
}

export type NoticeKind = "warning" | "error" | "aborted" | "info";

export function noticeCell(kind: NoticeKind, message: string, s: CellStyle, width: number): string[] {
  const t = s.theme;
  const mark =
    kind === "error" ? t.fg("error", "■ ") : kind === "warning" ? t.fg("warning", "⚠ ") : kind === "aborted" ? t.fg("error", "■ ") : t.dim("• ");
  const body = kind === "info" ? message : kind === "aborted" ? t.fg("error", message) : t.fg(kind === "error" ? "error" : "warning", message);
  return [...message.split("\n").flatMap((para, i) => prefixed(i === 0 ? mark : "  ", "  ", i === 0 ? body.split("\n")[0] ?? "" : para, width)), ""];
}

/** Free-form lines (slash command output such as /status or /diff), indented under a title. */
export function textCell(title: string, body: string[], s: CellStyle, width: number): string[] {
  const lines = [`${s.theme.fg("accent", "• ")}${s.theme.bold(title)}`];
  for (const l of body) lines.push(...prefixed("  ", "  ", l, width));
  lines.push("");
  return lines;
}

/** "1 file", "3 files": a number and its noun, plural when it is not one. */
export function count(n: number, noun: string): string {
  return `${n.toLocaleString("en-US")} ${noun}${n === 1 ? "" : "s"}`;
}

export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}K`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** "Worked for 12s" under a finished turn, with a short rule (a full-width one would re-wrap on a narrower terminal). */
export function workedCell(ms: number, s: CellStyle, width: number): string[] {
  const secs = Math.floor(ms / 1000);
  const took = secs < 1 ? "<1s" : secs < 60 ? `${secs}s` : `${Math.floor(secs / 60)}m ${String(secs % 60).padStart(2, "0")}s`;
  const text = `─ Worked for ${took} `;
  return [s.theme.dim(text + "─".repeat(Math.max(0, Math.min(width, 40) - visibleWidth(text)))), ""];
}

export function usageLine(u: TokenUsage): string {
  const cached = u.cached_input_tokens > 0 ? ` (+ ${u.cached_input_tokens.toLocaleString("en-US")} cached)` : "";
  const reasoning = u.reasoning_output_tokens > 0 ? ` (reasoning ${u.reasoning_output_tokens.toLocaleString("en-US")})` : "";
  return `Token usage: total=${u.total_tokens.toLocaleString("en-US")} input=${(u.input_tokens - u.cached_input_tokens).toLocaleString("en-US")}${cached} output=${u.output_tokens.toLocaleString("en-US")}${reasoning}`;
}
