/**
 * Error chains rendered the way the reference's messages read. It wraps failures in context
 * ("tool call failed for `srv/tool`", caused by "timed out awaiting tools/call after 60s") and
 * prints them either on one line (`outer: inner`) or in its debug form, which is what the model
 * sees after "tool call error: ".
 */
import { errorMessage } from "../util/errors.js";

export function errorChain(err: unknown): string[] {
  const out: string[] = [];
  let current: unknown = err;
  while (current !== undefined && current !== null && out.length < 16) {
    out.push(errorMessage(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return out;
}

/** `outer: inner: innermost` */
export function chainText(err: unknown): string {
  return errorChain(err).join(": ");
}

/** The outer message, then "Caused by:" and the causes indented (numbered when several). */
export function chainDebug(err: unknown): string {
  const [first = "", ...causes] = errorChain(err);
  if (causes.length === 0) return first;
  if (causes.length === 1) return `${first}\n\nCaused by:\n    ${causes[0]}`;
  return `${first}\n\nCaused by:\n${causes.map((c, i) => `    ${i}: ${c}`).join("\n")}`;
}

export function withContext(context: string, cause: unknown): Error {
  return new Error(context, { cause });
}
