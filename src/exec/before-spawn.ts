/**
 * What every place that starts a command for the model does first: hide codex-ts's own
 * environment from it (initial-environment.ts) and have the watchdog that ends it with codex-ts
 * running (group-watchdog.ts), so that the command can be registered the moment it exists.
 */
import { startWatchdog } from "./group-watchdog.js";
import { scrubInitialEnvironment } from "./initial-environment.js";

export function beforeCommandSpawn(): void {
  scrubInitialEnvironment();
  startWatchdog();
}
