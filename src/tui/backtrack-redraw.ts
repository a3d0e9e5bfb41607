/**
 * After a backtrack (Esc Esc) the terminal still shows the turns the rollback dropped. The
 * session file now ends before them, so the conversation is redrawn from it the way a resume
 * redraws it: the kept turns exactly as they were shown, nothing of the dropped ones. A session
 * without a file (--ephemeral) keeps its screen as it is.
 */
import type { EventMsg } from "../protocol/events.js";
import { errorMessage } from "../util/errors.js";

/** What the redraw does to the app's screen. */
export interface RedrawSurface {
  /** Clears the terminal and the app's view of the conversation, and draws the header again. */
  clear(): void;
  /** Draws one recorded event as a resume does. */
  replay(msg: EventMsg): void;
  warn(message: string): void;
}

/** Redraws the recorded conversation; false when there is no file to redraw it from (or it cannot be read). */
export async function redrawKeptTurns(rolloutPath: string | null, surface: RedrawSurface): Promise<boolean> {
  if (rolloutPath === null) return false;
  let events: EventMsg[];
  try {
    // Loaded on first use: only a backtrack needs the reader here.
    events = (await import("../host/recorded-threads.js")).recordedConversation(rolloutPath);
  } catch (err) {
    surface.warn(`Could not redraw the conversation: ${errorMessage(err)}`);
    return false;
  }
  surface.clear();
  for (const msg of events) surface.replay(msg);
  return true;
}
