/** Where codex-ts keeps its files: $CODEX_HOME, else ~/.codex-ts (beside, not inside, ~/.codex). */
import { homedir } from "node:os";
import { join } from "node:path";

export function codexHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.CODEX_HOME?.trim();
  return fromEnv ? fromEnv : join(homedir(), ".codex-ts");
}
