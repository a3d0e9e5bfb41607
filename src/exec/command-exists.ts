/**
 * Whether a program names an executable file, directly (with a slash, against `cwd`) or through
 * PATH: asked before a command is wrapped in a sandbox, whose own "not found" would hide the
 * plain one the user should see.
 */
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, resolve } from "node:path";

export function commandExists(program: string, cwd: string, pathEnv: string | undefined): boolean {
  const candidates = program.includes("/")
    ? [resolve(cwd, program)]
    : (pathEnv ?? "").split(delimiter).map((dir) => resolve(cwd, isAbsolute(dir) ? dir : dir || ".", program));
  return candidates.some((candidate) => {
    try {
      if (!statSync(candidate).isFile()) return false;
      accessSync(candidate, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
