/**
 * Where a path really leads: symlinks resolved in the part of it that exists, the rest (a file or
 * folders not created yet) appended as written. Write checks compare this with the allowed roots,
 * and an editor write is sent here, so a link inside the workspace cannot lead a write out.
 */
import { realpathSync } from "node:fs";
import { dirname, join } from "node:path";

export function realLocation(path: string): string {
  const missing: string[] = [];
  let current = path;
  for (;;) {
    try {
      return join(realpathSync(current), ...missing.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return path;
      missing.push(current.slice(parent.length).replace(/^[/\\]/, ""));
      current = parent;
    }
  }
}
