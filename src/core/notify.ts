/**
 * The `notify` program from config.toml (`notify = ["program", "arg", …]`): after each completed
 * turn it is started with its configured arguments plus one more, a JSON description of the turn
 * in the reference's "agent-turn-complete" shape:
 *
 *   {"type":"agent-turn-complete","thread-id":"…","turn-id":"…","cwd":"…",
 *    "input-messages":["what the user typed"],"last-assistant-message":"the answer"|null}
 *
 * The program runs detached with the user's environment, no stdin and its output discarded, and
 * nobody waits for it: a missing program, a crash or a non-zero exit never reaches the agent.
 */
import { spawn } from "node:child_process";
import type { UserInput } from "../protocol/ops.js";
import { errorMessage } from "../util/errors.js";

export interface TurnCompletePayload {
  threadId: string;
  turnId: string;
  cwd: string;
  /** The user's text messages of the turn, one entry per text input. */
  inputMessages: string[];
  /** The agent's final message, or null when it ended without one. */
  lastAssistantMessage: string | null;
}

export interface NotifyOptions {
  /** Environment for the program; the process's own by default. */
  env?: NodeJS.ProcessEnv;
  /** Told (once) why the program could not be started; nothing is reported by default. */
  onError?: (message: string) => void;
}

/** The JSON argument, with the reference's kebab-case keys in the reference's order. */
export function turnCompleteJson(payload: TurnCompletePayload): string {
  return JSON.stringify({
    type: "agent-turn-complete",
    "thread-id": payload.threadId,
    "turn-id": payload.turnId,
    cwd: payload.cwd,
    "input-messages": payload.inputMessages,
    "last-assistant-message": payload.lastAssistantMessage,
  });
}

/** The user's text inputs of a turn (images are left out), for `inputMessages`. */
export function userTextMessages(items: readonly UserInput[]): string[] {
  const texts: string[] = [];
  for (const item of items) if (item.type === "text") texts.push(item.text);
  return texts;
}

/**
 * Starts the notify program for a completed turn and returns at once. Does nothing when
 * `command` is null or empty. Never throws.
 */
export function notifyTurnComplete(
  command: readonly string[] | null | undefined,
  payload: TurnCompletePayload,
  options: NotifyOptions = {},
): void {
  const [program, ...args] = command ?? [];
  if (!program) return;
  let reported = false;
  const report = (err: unknown): void => {
    if (reported) return;
    reported = true;
    try {
      options.onError?.(`notify program ${JSON.stringify(program)} could not be started: ${errorMessage(err)}`);
    } catch {
      // A failing reporter must not disturb the agent either.
    }
  };
  try {
    const child = spawn(program, [...args, turnCompleteJson(payload)], {
      detached: true,
      stdio: "ignore",
      env: options.env ?? process.env,
    });
    // Without a listener, a failed start (ENOENT, EACCES) would be an uncaught 'error' event.
    child.on("error", report);
    child.unref();
  } catch (err) {
    // spawn throws synchronously for arguments it rejects outright (e.g. a NUL byte).
    report(err);
  }
}
