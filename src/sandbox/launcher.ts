/**
 * The single entry point for confining a command: given the sandbox policy, it rewrites the
 * command line so that it runs under the platform's mechanism (bubblewrap or Landlock on Linux,
 * Seatbelt on macOS) and adds the environment markers commands look for. When no mechanism can
 * confine the command it throws SandboxUnavailableError; it never hands back an unconfined
 * command for a confining policy, nor one that could read a path the guard's rules deny.
 * The mechanisms themselves (confine.ts) load with the first command that needs one: a session
 * with full access and nothing denied never loads them.
 */
import { nonEmpty, type SandboxedCommand, type SandboxRequest } from "./sandbox-request.js";

export { LINUX_SANDBOX_ENV_VAR, SANDBOX_ENV_VAR, SandboxUnavailableError, type SandboxedCommand, type SandboxRequest, type SandboxType } from "./sandbox-request.js";

/**
 * Wraps argv so it runs confined by `policy` and the guard's rules. danger-full-access with
 * nothing denied returns it unchanged (sandbox "none").
 */
export async function sandboxCommand(req: SandboxRequest): Promise<SandboxedCommand> {
  if (req.argv.length === 0) throw new Error("sandboxCommand: empty command line");
  const deny = req.guard === undefined ? undefined : nonEmpty(req.guard.view());
  if (req.policy.type === "danger-full-access" && deny === undefined) return { argv: [...req.argv], env: { ...req.env }, sandbox: "none" };
  return (await import("./confine.js")).confinedCommand(req, deny);
}
