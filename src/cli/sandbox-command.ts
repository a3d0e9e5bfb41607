/**
 * `codex-ts sandbox [-s MODE | -P PROFILE] [--add-dir DIR] [-c key=value] -- COMMAND [ARG...]`: runs one
 * command in the current directory under the same sandbox the agent's commands get, with this
 * terminal's stdin, stdout and stderr. Useful to see what a policy allows before trusting it.
 *
 * The policy comes from config.toml (`sandbox_mode`, `[sandbox_workspace_write]`, or a permission
 * profile: `default_permissions`, `[permissions]`), `-c` overrides and the flags; without any of
 * them it is read-only. A profile's denied paths are hidden from the command as from the agent's. The command's environment
 * follows `[shell_environment_policy]`, so credentials are dropped as for the agent's commands.
 * Exit status: the command's, 128 + N when it was killed by signal N, 127 when it does not
 * exist, 1 when the sandbox cannot be set up or the config is invalid, 2 for usage errors.
 */
import { spawn } from "node:child_process";
import { constants as osConstants } from "node:os";
import { loadConfig, type Config } from "../config/load-config.js";
import { ConfigError } from "../config/overrides.js";
import type { SandboxMode } from "../protocol/policy.js";
import { commandEnvironment, commandExists, sandboxed } from "../host/standalone.js";

export interface SandboxCommandOptions {
  sandbox?: SandboxMode;
  /** `-P NAME`: a permission profile. */
  permissions?: string | undefined;
  addDir: string[];
  config: string[];
}

const USAGE = "Usage: codex-ts sandbox [-s MODE | -P PROFILE] [--add-dir DIR] [-c key=value] -- COMMAND [ARG...]\n";

export async function runSandboxCommand(argv: string[], opts: SandboxCommandOptions): Promise<number> {
  const program = argv[0];
  if (program === undefined || program === "") {
    process.stderr.write(USAGE);
    return 2;
  }
  const cwd = process.cwd();
  let config: Config;
  try {
    config = loadConfig({ cwd, overrides: opts.config, sandboxMode: opts.sandbox, permissionProfile: opts.permissions, addDirs: opts.addDir });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`Error loading config: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  for (const warning of config.warnings) process.stderr.write(`warning: ${warning}\n`);

  const env = await commandEnvironment(config);
  if (!commandExists(program, cwd, env.PATH)) {
    process.stderr.write(`codex-ts sandbox: ${program}: command not found\n`);
    return 127;
  }

  const tty = process.stdin.isTTY === true;
  const command = await sandboxed(config, cwd, argv, env, tty);
  if ("unavailable" in command) {
    process.stderr.write(`${command.unavailable}\n`);
    return 1;
  }
  for (const warning of command.warnings) process.stderr.write(`warning: ${warning}\n`);
  const [file = program, ...args] = command.argv;
  return new Promise<number>((resolvePromise) => {
    const child = spawn(file, args, { cwd, env: command.env, stdio: "inherit" });
    // With a terminal, Ctrl-C reaches the command directly (same process group); we only need
    // to survive it. Without one, the command may sit in its own session, so pass signals on.
    const forward = (signal: NodeJS.Signals): void => {
      if (tty && signal === "SIGINT") return;
      child.kill(signal);
    };
    const signals: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
    for (const signal of signals) process.on(signal, forward);
    const done = (code: number): void => {
      for (const signal of signals) process.off(signal, forward);
      resolvePromise(code);
    };
    child.on("error", (err: NodeJS.ErrnoException) => {
      process.stderr.write(`codex-ts sandbox: cannot start ${file}: ${err.message}\n`);
      done(err.code === "ENOENT" ? 127 : 126);
    });
    child.on("exit", (code, signal) => {
      if (code !== null) done(code);
      else done(128 + (signal ? (osConstants.signals[signal] ?? 0) : 0));
    });
  });
}
