import { lstatSync, type Stats } from "node:fs";

/**
 * The entry's own stats (a link is not followed), or null when there is none or it cannot be
 * looked at: callers treat both as "not something to use".
 */
export function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}
