/**
 * The session's start-up hook for shell snapshots (feature `shell_snapshot`, on by default): the
 * user's shell is snapshotted in the background as the session starts, so its commands need not
 * run the start-up files again (see exec/shell-snapshot.ts). A snapshot that fails is reported
 * once as a warning and commands keep using login shells.
 */
import { createCommandEnv } from "../exec/env.js";
import { SessionShellSnapshot } from "../exec/shell-snapshot.js";
import { snapshotShellKind } from "../exec/shell-snapshot-scripts.js";
import type { SessionOptions } from "./session-options.js";

/** The shell commands run in when none was configured. */
export function userShellOf(options: SessionOptions): string {
  return options.userShell ?? process.env.SHELL ?? "/bin/bash";
}

/** Null when the feature is off, nowhere to keep the file, or the shell has no snapshot dialect. */
export function startShellSnapshot(options: SessionOptions, threadId: string, cwd: string, warn: (message: string) => void): SessionShellSnapshot | null {
  const shell = userShellOf(options);
  if (options.modelSettings?.features.shell_snapshot !== true || !options.codexHome || !snapshotShellKind(shell)) return null;
  return new SessionShellSnapshot({
    shell,
    codexHome: options.codexHome,
    threadId,
    cwd,
    env: createCommandEnv(options.shellEnvironmentPolicy, process.env),
    onFailure: (reason) =>
      warn(`Could not snapshot your shell (${reason}); commands run in login shells, which read your start-up files every time.`),
  });
}
