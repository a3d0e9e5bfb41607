/** Every method codex-ts app-server serves, by name (docs/app-server.md lists them with their status). */
import type { Method } from "../server.js";
import { accountMethods } from "./account.js";
import { commandExec } from "./command-exec.js";
import { processMethods } from "./command-processes.js";
import { fuzzyFileSearchMethods } from "./fuzzy-file-search.js";
import { goalMethods } from "./goals.js";
import { mcpMethods } from "./mcp.js";
import { threadItemMethods } from "./thread-items.js";
import { hookMethods } from "./hooks.js";
import { settingsMethods } from "./settings.js";
import { threadMethods } from "./threads.js";
import { turnMethods } from "./turns.js";

export const METHODS: Readonly<Record<string, Method>> = {
  ...threadMethods,
  ...turnMethods,
  ...settingsMethods,
  ...accountMethods,
  ...hookMethods,
  "command/exec": commandExec,
  ...processMethods,
  ...fuzzyFileSearchMethods,
  ...mcpMethods,
  ...goalMethods,
  ...threadItemMethods,
};
