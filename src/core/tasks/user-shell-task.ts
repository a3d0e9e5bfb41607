/**
 * A command the user typed (`!cmd` in a UI): run by the user's shell in the session's cwd under
 * the session's sandbox, streamed as exec_command_* events marked `source: "user_shell"`. The
 * user asked for it, so nobody is asked to approve it. Its outcome enters history as a
 * `<user_shell_command>` user message (the reference's format), so the model knows what the user
 * ran and saw; no model request is made.
 */
import { userText } from "../../protocol/items.js";
import type { EventMsg } from "../../protocol/events.js";
import { shellCommandHandler } from "../../tools/handlers/shell.js";
import type { ToolInvocation } from "../../tools/types.js";
import { TurnDiffTracker } from "../../patch/turn-diff.js";
import type { SessionTask, TaskContext } from "./task.js";

/** The user waits for their own command as long as it takes; an interrupt stops it. */
const USER_COMMAND_TIMEOUT_MS = 24 * 60 * 60 * 1000;

export class UserShellTask implements SessionTask {
  readonly kind = "user_shell";

  constructor(
    private readonly command: string,
    private readonly callId: string,
  ) {}

  async run(ctx: TaskContext): Promise<string | null> {
    const emit = (msg: EventMsg): void =>
      ctx.emit(msg.type === "exec_command_begin" || msg.type === "exec_command_end" ? { ...msg, source: "user_shell" } : msg);
    const invocation: ToolInvocation = {
      callId: this.callId,
      name: "shell_command",
      payload: { kind: "function", arguments: JSON.stringify({ command: this.command, timeout_ms: USER_COMMAND_TIMEOUT_MS }) },
      // The user's own command: run under the sandbox, never held for approval.
      turn: { ...ctx.turn, approvalPolicy: "never" },
      signal: ctx.signal,
      emit,
      turnDiff: new TurnDiffTracker(ctx.turn.cwd),
    };
    const output = await shellCommandHandler.handle(invocation);
    if (!ctx.signal.aborted) ctx.history.append(userText(userShellCommandRecord(this.command, output.text)));
    return null;
  }
}

export function userShellCommandRecord(command: string, result: string): string {
  return `<user_shell_command>\n<command>\n${command}\n</command>\n<result>\n${result}\n</result>\n</user_shell_command>`;
}
