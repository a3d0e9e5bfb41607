/**
 * exec's human mode: progress goes to stderr as it happens, and only the final agent message
 * goes to stdout, so `codex-ts exec "…" > answer.txt` captures just the answer.
 */
import type { Event, PatchBlocker } from "../../protocol/events.js";
import { isSuccessfulOutcome, type EventDuration, type McpStartupStatus } from "../../protocol/mcp-events.js";
import { formatMcpInvocation } from "../../presentation/mcp-items.js";
import { collabLine, isCollabEvent, type CollabLine } from "../../presentation/collab-text.js";
import { HookReportFilter } from "../../presentation/hook-runs.js";
import { dirname } from "node:path";
import { shellJoin } from "../../util/shell-quote.js";

export interface Palette {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  magenta(s: string): string;
  cyan(s: string): string;
}

export function palette(enabled: boolean): Palette {
  const wrap = (code: number) => (s: string) => (enabled ? `\x1b[${code}m${s}\x1b[0m` : s);
  return { bold: wrap(1), dim: wrap(2), red: wrap(31), green: wrap(32), magenta: wrap(35), cyan: wrap(36) };
}

const MAX_OUTPUT_LINES = 20;

export class HumanOutput {
  private readonly started = new Map<string, number>();
  private totalTokens = 0;
  private readonly hookReports = new HookReportFilter();

  constructor(
    private readonly err: (text: string) => void,
    private readonly c: Palette,
    private readonly version: string,
    /** `hide_agent_reasoning`: leave the model's reasoning out. */
    private readonly hideReasoning = false,
  ) {}

  render(event: Event): void {
    const msg = event.msg;
    const c = this.c;
    switch (msg.type) {
      case "session_configured":
        this.err(
          [
            `codex-ts ${this.version}`,
            "--------",
            `workdir: ${msg.cwd}`,
            `model: ${msg.model}`,
            `provider: ${msg.model_provider_id}`,
            `approval: ${msg.approval_policy}`,
            `sandbox: ${msg.sandbox_policy.type}`,
            ...(msg.reasoning_effort ? [`reasoning effort: ${msg.reasoning_effort}`] : []),
            `session id: ${msg.session_id}`,
            "--------",
          ].join("\n"),
        );
        break;
      case "user_message":
        this.err(`${c.bold(c.magenta("user"))}\n${msg.message}`);
        break;
      case "agent_reasoning":
        if (this.hideReasoning) break;
        this.err(`${c.dim(c.magenta("thinking"))}\n${c.dim(msg.text)}`);
        break;
      case "agent_message":
        this.err(`${c.bold(c.magenta("codex"))}\n${msg.message}`);
        break;
      case "exec_command_begin":
        this.started.set(msg.call_id, Date.now());
        this.err(`${c.bold(c.magenta("exec"))}\n${c.bold(shellJoin(msg.command))} in ${c.dim(msg.cwd)}`);
        break;
      case "exec_command_end": {
        const ms = Date.now() - (this.started.get(msg.call_id) ?? Date.now());
        this.started.delete(msg.call_id);
        const status = msg.exit_code === 0 ? c.green(`succeeded in ${ms}ms:`) : c.red(`exited ${msg.exit_code} in ${ms}ms:`);
        this.err(`${status}\n${c.dim(clip(msg.aggregated_output))}`);
        break;
      }
      case "patch_apply_begin":
        this.err(`${c.bold(c.magenta("apply_patch"))}\n${Object.entries(msg.changes).map(([p, ch]) => `${ch.type} ${p}`).join("\n")}`);
        break;
      case "patch_apply_end":
        this.err(msg.success ? c.green("patch applied") : c.red(`patch failed: ${msg.stderr.trim()}`));
        break;
      case "patch_apply_rejected":
        this.err(`${c.bold(c.magenta("apply_patch"))}\n${c.red(`patch rejected: ${msg.reason}`)}${rejectionHint(msg.blocked_by, msg.path, c)}`);
        break;
      case "mcp_startup_update":
        this.err(`${c.cyan("mcp:")} ${msg.server} ${startupStatusText(msg.status)}`);
        break;
      case "mcp_startup_complete": {
        const parts = [
          ...(msg.ready.length > 0 ? [`ready: ${msg.ready.join(", ")}`] : []),
          ...(msg.failed.length > 0 ? [`failed: ${msg.failed.map((f) => f.server).join(", ")}`] : []),
          ...(msg.cancelled.length > 0 ? [`cancelled: ${msg.cancelled.join(", ")}`] : []),
        ];
        this.err(`${c.cyan("mcp startup:")} ${parts.length > 0 ? parts.join("; ") : "no servers"}`);
        break;
      }
      case "mcp_tool_call_begin":
        this.err(`${c.magenta("tool")} ${c.bold(formatMcpInvocation(msg.invocation))}`);
        break;
      case "mcp_tool_call_end": {
        const success = isSuccessfulOutcome(msg.result);
        const title = `${formatMcpInvocation(msg.invocation)} ${success ? "success" : "failed"} in ${formatElapsed(msg.duration)}:`;
        this.err(success ? c.green(title) : c.red(title));
        // The server's result as pretty JSON (an error message is in the title's place already).
        if ("Ok" in msg.result) this.err(c.dim(clip(JSON.stringify(msg.result.Ok, null, 2))));
        break;
      }
      case "web_search_begin":
        // The reference prints the line at the start too, before the query is known.
        this.err(`${c.bold("web search:")} `);
        break;
      case "web_search_end":
        this.err(`${c.bold("web search:")} ${msg.query}`);
        break;
      case "entered_review_mode":
        this.err(`${c.bold(c.magenta("review"))} ${msg.user_facing_hint ?? ""}`);
        break;
      case "exited_review_mode":
        this.err(msg.review_output ? c.magenta(`review finished: ${msg.review_output.findings.length} finding(s)`) : c.red("review interrupted"));
        break;
      case "agent_reasoning_raw_content":
        if (!this.hideReasoning) this.err(`${c.dim(c.magenta("raw reasoning"))}\n${c.dim(msg.text)}`);
        break;
      case "plan_update":
        this.err(
          `${c.bold(c.magenta("plan"))}\n${msg.plan.map((p) => `${p.status === "completed" ? "✔" : p.status === "in_progress" ? "→" : "□"} ${p.step}`).join("\n")}`,
        );
        break;
      case "token_count":
        if (msg.info) this.totalTokens = msg.info.total_token_usage.total_tokens;
        break;
      case "context_compacted":
        this.err(c.dim("context compacted: earlier turns were summarised to free the model's context window"));
        break;
      case "stream_error":
        this.err(c.dim(`${msg.message}${msg.additional_details ? ` (${msg.additional_details})` : ""}`));
        break;
      case "warning":
        this.err(c.dim(`warning: ${msg.message}`));
        break;
      case "hook_completed": {
        const report = this.hookReports.report(msg.run);
        if (report) this.err([`${c.bold("hook:")} ${report.event} ${report.failed ? c.red(report.status) : report.status}`, ...report.lines.map((l) => `  ${l}`)].join("\n"));
        break;
      }
      case "error":
        this.err(c.red(`ERROR: ${msg.message}`));
        break;
      case "turn_aborted":
        this.err(c.red(`turn ${msg.reason}`));
        break;
      case "task_complete":
        if (this.totalTokens > 0) this.err(`${c.magenta("tokens used")}\n${this.totalTokens.toLocaleString("en-US")}`);
        break;
      default:
        if (isCollabEvent(msg)) this.collab(collabLine(msg));
        break;
    }
  }

  /** A sub-agent's activity: one line naming it, and what goes with it (the task, the answer). */
  private collab(line: CollabLine | null): void {
    if (!line) return;
    const c = this.c;
    const title = line.tone === "error" ? c.red(line.title) : line.tone === "success" ? c.green(line.title) : c.cyan(line.title);
    this.err(`${c.bold("agents:")} ${title}`);
    if (line.detail) this.err(c.dim(clip(line.detail)));
  }
}

/** The exec flag that would have let a refused patch through. */
function rejectionHint(blockedBy: PatchBlocker | null, path: string | null, c: Palette): string {
  switch (blockedBy) {
    case "read-only-sandbox":
      return `\n${c.dim("the sandbox is read-only; run with --sandbox workspace-write (or --full-auto) to let the agent edit files")}`;
    case "writable-roots":
      return path === null ? "" : `\n${c.dim(`${path} is outside the writable folders; --add-dir ${shellJoin([dirname(path)])} would allow it`)}`;
    default:
      return "";
  }
}

function startupStatusText(status: McpStartupStatus): string {
  return status.state === "failed" ? `failed: ${status.error}` : status.state;
}

/** 850ms, 1.50s, 2m 05s: how the reference prints a call's duration. */
export function formatElapsed(duration: EventDuration): string {
  const ms = Math.floor(duration.secs * 1000 + duration.nanos / 1e6);
  if (ms < 1000) return `${ms}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)}s`;
  return `${Math.floor(ms / 60_000)}m ${String(Math.floor((ms % 60_000) / 1000)).padStart(2, "0")}s`;
}

function clip(output: string): string {
  const lines = output.replace(/\n$/, "").split("\n");
  if (lines.length <= MAX_OUTPUT_LINES) return lines.join("\n");
  return [...lines.slice(0, MAX_OUTPUT_LINES), `… +${lines.length - MAX_OUTPUT_LINES} lines`].join("\n");
}
