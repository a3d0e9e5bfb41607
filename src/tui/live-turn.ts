/**
 * What a running turn shows while it runs, in the live region, until each piece becomes a
 * finished cell: the answer still streaming (its whole paragraphs are committed as they
 * complete), the reasoning summary's last line, running commands with the tail of their output,
 * MCP calls and web searches in progress, and messages the user steered into the turn.
 *
 * A steered message joins the conversation when the answer streaming at that moment ends (the
 * model reads it with its next request), so it waits below the answer until then instead of
 * splitting the answer in two; an answer that stops early is cut at a clean point.
 */
import type { McpInvocation } from "../protocol/mcp-events.js";
import { agentCell, commandCell, mcpCallCell, userCell, type CellStyle, type CommandView } from "./cells.js";
import { webSearchCell } from "./activity-cells.js";
import { CommandOutput } from "./command-output.js";
import { StreamingText } from "./streaming-text.js";

interface LiveCommand {
  command: string[];
  userShell: boolean;
  output: CommandOutput;
}

/** A running command as the command cell draws it. */
function commandView(c: LiveCommand): CommandView {
  return { command: c.command, output: c.output.text, exitCode: null, duration: null, userShell: c.userShell };
}

/** How the live parts reach scrollback: `render` draws a cell at a width (now, and again for the transcript). */
export type CommitCell = (render: (width: number) => string[]) => void;

export class LiveTurn {
  private readonly stream = new StreamingText();
  /** Whether the streaming answer already put a paragraph in scrollback (no bullet again). */
  private continues = false;
  private reasoningText = "";
  private steered: string[] = [];
  private readonly commands = new Map<string, LiveCommand>();
  private readonly mcpCalls = new Map<string, McpInvocation>();
  /** Web searches the provider is running, by call id (drawn until their end event). */
  private readonly searches = new Set<string>();

  constructor(
    private readonly style: CellStyle,
    private readonly hideReasoning: boolean,
    private readonly commit: CommitCell,
  ) {}

  // ------------------------------------------------------------------ the answer

  delta(text: string): void {
    this.stream.append(text);
    const stable = this.stream.takeStable();
    if (stable === null) return;
    const first = !this.continues;
    this.commit((w) => agentCell(stable, this.style, w, first).slice(0, -1));
    this.continues = true;
  }

  /** The answer's final text: what was not committed yet is, then the steered messages. */
  message(full: string): void {
    const first = !this.continues;
    const rest = this.stream.finish(full);
    this.continues = false;
    if (rest.trim() !== "" || first) this.commit((w) => agentCell(rest, this.style, w, first));
    else this.commit(() => [""]);
    this.releaseSteered();
  }

  /**
   * The answer ends without its final message: `cut` (an interrupt, an error) stops at a clean
   * point; otherwise what arrived is committed whole.
   */
  endAnswer(cut: boolean): void {
    const first = !this.continues;
    const rest = cut ? this.stream.cut() : this.stream.pending();
    if (!cut) this.stream.finish("");
    if (rest.trim() !== "") this.commit((w) => agentCell(rest, this.style, w, first));
    this.continues = false;
    this.releaseSteered();
  }

  /** The request is sent again (a retry): its answer starts over. */
  restart(): void {
    this.stream.restart();
  }

  /** A message the user sent: shown now, or after the answer that is streaming. */
  userMessage(text: string): void {
    if (this.stream.started) this.steered.push(text);
    else this.commit((w) => userCell(text, this.style, w));
  }

  private releaseSteered(): void {
    for (const text of this.steered.splice(0)) this.commit((w) => userCell(text, this.style, w));
  }

  // ------------------------------------------------------------------ reasoning

  reasoningDelta(text: string): void {
    if (!this.hideReasoning) this.reasoningText += text;
  }

  reasoningDone(): void {
    this.reasoningText = "";
  }

  // ------------------------------------------------------------------ commands, MCP calls, searches

  commandBegin(callId: string, command: string[], userShell: boolean): void {
    this.commands.set(callId, { command, userShell, output: new CommandOutput() });
  }

  commandOutput(callId: string, stream: "stdout" | "stderr", chunk: string): void {
    this.commands.get(callId)?.output.append(stream, chunk);
  }

  commandEnd(callId: string): void {
    this.commands.delete(callId);
  }

  mcpBegin(callId: string, invocation: McpInvocation): void {
    this.mcpCalls.set(callId, invocation);
  }

  mcpEnd(callId: string): void {
    this.mcpCalls.delete(callId);
  }

  searchBegin(callId: string): void {
    this.searches.add(callId);
  }

  searchEnd(callId: string): void {
    this.searches.delete(callId);
  }

  /** A search the provider never finished is not running any more once the turn completes. */
  turnComplete(): void {
    this.endAnswer(false);
    this.searches.clear();
  }

  /** The turn stopped: the answer is cut, commands still running are shown as interrupted. */
  turnAborted(): void {
    this.endAnswer(true);
    for (const c of this.commands.values()) {
      const view = { ...commandView(c), exitCode: -1, interrupted: true };
      this.commit((w) => commandCell(view, this.style, w));
    }
    this.commands.clear();
    this.mcpCalls.clear();
    this.searches.clear();
  }

  /** Another thread is shown: nothing of this one stays live. */
  reset(): void {
    this.stream.finish("");
    this.continues = false;
    this.steered = [];
    this.reasoningText = "";
    this.commands.clear();
    this.mcpCalls.clear();
    this.searches.clear();
  }

  // ------------------------------------------------------------------ drawing

  lines(width: number): string[] {
    const t = this.style.theme;
    const lines: string[] = [];
    const pending = this.stream.pending();
    if (pending.trim() !== "") lines.push(...agentCell(pending, this.style, width, !this.continues));
    for (const text of this.steered) {
      lines.push(...userCell(text, this.style, width).slice(0, -1), t.dim("  ↳ the agent reads this when the answer above ends"), "");
    }
    if (this.reasoningText.trim() !== "" && !this.stream.started) lines.push(t.dim(t.italic(`• ${lastLine(this.reasoningText)}`)));
    for (const c of this.commands.values()) lines.push(...commandCell(commandView(c), this.style, width));
    for (const inv of this.mcpCalls.values()) lines.push(...mcpCallCell(inv, null, null, this.style, width));
    for (let i = 0; i < this.searches.size; i++) lines.push(...webSearchCell(null, this.style, width));
    return lines;
  }
}

function lastLine(text: string): string {
  const lines = text.trim().split("\n");
  return lines[lines.length - 1] ?? "";
}
