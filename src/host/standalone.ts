/**
 * The engine's entry points for the CLI's standalone subcommands, which drive no thread: a
 * command run under the sandbox the agent's commands get (`codex-ts sandbox`, the app-server's
 * `command/exec`), a patch applied in a folder (`codex-ts apply_patch`), and the command rules
 * checked against a command (`codex-ts execpolicy check`). Front ends reach the engine only
 * through the host; these are the narrow doors for those, each loading only what it needs.
 */
import type { Config } from "../config/load-config.js";
import type { SandboxedCommand } from "../sandbox/launcher.js";
import type { PatchRunResult } from "../patch/apply-patch.js";
import type { ExecProcess, ExecProcessSpec } from "../exec/pipe-process.js";

export type { SandboxedCommand, PatchRunResult, ExecProcess };

/** The environment a command gets under the config's `[shell_environment_policy]` (credentials dropped). */
export async function commandEnvironment(config: Config): Promise<Record<string, string>> {
  const { createCommandEnv } = await import("../exec/env.js");
  return createCommandEnv(config.shellEnvironmentPolicy, process.env);
}

/**
 * `argv` wrapped in the config's sandbox (its denied paths hidden) with the warnings the user
 * should see about it, or the reason no sandbox can be set up here.
 */
export async function sandboxed(
  config: Config,
  cwd: string,
  argv: string[],
  env: Record<string, string>,
  tty: boolean,
): Promise<(SandboxedCommand & { warnings: string[] }) | { unavailable: string }> {
  const [{ SandboxUnavailableError, sandboxCommand }, { FileSystemGuard }] = await Promise.all([import("../sandbox/launcher.js"), import("../sandbox/fs-guard.js")]);
  const warnings: string[] = [];
  try {
    const guard = new FileSystemGuard(config.fileSystemRules, { warn: (message) => warnings.push(message) });
    return { ...(await sandboxCommand({ policy: config.sandboxPolicy, cwd, argv, env, tty, guard })), warnings };
  } catch (err) {
    if (err instanceof SandboxUnavailableError) return { unavailable: err.message };
    throw err;
  }
}

export { commandExists } from "../exec/command-exists.js";

/**
 * Whether the config's permission profile denies `path` by its name (no disk access: for long
 * file lists such as the `@` popup's). One matcher per config, kept while the config is the same.
 */
export async function deniedPathFilter(config: Config): Promise<(path: string) => boolean> {
  const { FileSystemGuard } = await import("../sandbox/fs-guard.js");
  const guard = new FileSystemGuard(config.fileSystemRules);
  return (path) => guard.deniedByName(path);
}

/** Applies a patch in `cwd` all or nothing, with the reference's standalone output. */
export async function applyPatchIn(patch: string, cwd: string): Promise<PatchRunResult> {
  const { applyPatchInDirectory } = await import("../patch/apply-patch.js");
  return applyPatchInDirectory(patch, cwd);
}

/**
 * What the command rules (these `.rules` files, or the config's rule folders) say of `command`,
 * as the reference's `execpolicy check` prints it; throws when a rules file is broken.
 */
export async function evaluateCommandRules(command: string[], files: string[], config: () => Config): Promise<unknown> {
  const { ExecPolicy } = await import("../approval/exec-policy/policy.js");
  const policy = files.length > 0 ? ExecPolicy.loadFiles(files) : ExecPolicy.loadFolders(config().rulesFolders);
  return policy.evaluate(command);
}

export interface SandboxedRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * `argv` run to completion under the config's sandbox, outside any thread (the app-server's
 * `command/exec`): in its own process group, ended with codex-ts, killed at `timeoutMs` (exit
 * 124), each stream kept to its head and tail past `maxCaptureChars`. The reason no sandbox can be
 * set up here, when none can.
 */
export async function runSandboxed(
  config: Config,
  cwd: string,
  argv: string[],
  env: Record<string, string>,
  limits: { timeoutMs?: number; maxCaptureChars?: number },
): Promise<SandboxedRun | { unavailable: string }> {
  const command = await sandboxed(config, cwd, argv, env, false);
  if ("unavailable" in command) return command;
  const { runCommand } = await import("../exec/run-command.js");
  const result = await runCommand({ argv: command.argv, cwd, env: command.env, timeoutMs: limits.timeoutMs, maxCaptureChars: limits.maxCaptureChars });
  return { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr };
}

/**
 * A long-running command under the config's sandbox (as `runSandboxed`'s), talked to while it
 * runs: its output as it comes, its stdin written, a PTY with `tty` (sized by `size`), ended
 * with `terminate()` (the whole process group). Rejects with a readable message when it cannot
 * be started.
 */
export async function startSandboxed(
  config: Config,
  cwd: string,
  argv: string[],
  env: Record<string, string>,
  opts: { tty: boolean } & Pick<ExecProcessSpec, "onOutput" | "onStateChange" | "size">,
): Promise<ExecProcess | { unavailable: string }> {
  const command = await sandboxed(config, cwd, argv, env, opts.tty);
  if ("unavailable" in command) return command;
  const spec: ExecProcessSpec = { argv: command.argv, cwd, env: command.env, onOutput: opts.onOutput, onStateChange: opts.onStateChange, ...(opts.size ? { size: opts.size } : {}) };
  if (opts.tty) return (await import("../exec/pty-process.js")).spawnPtyProcess(spec);
  return (await import("../exec/pipe-process.js")).spawnPipeProcess(spec);
}
