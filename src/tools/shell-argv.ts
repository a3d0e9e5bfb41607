/**
 * How a script the model wrote becomes a command line, for every tool that takes one
 * (`shell_command`, `exec_command`, the user's `!cmd`): the shell with `-lc` (a login shell, so
 * the user's start-up files apply) or `-c` when the model asked for no login. A POSIX `sh` has
 * no login flag worth trusting, so it always gets `-c`, as the reference's shell does.
 */
import { basename } from "node:path";

export function shellArgv(shell: string, script: string, login: boolean): string[] {
  return [shell, login && basename(shell) !== "sh" ? "-lc" : "-c", script];
}
