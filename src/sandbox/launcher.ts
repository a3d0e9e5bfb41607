/**
 * The single entry point for confining a command: given the sandbox policy, it rewrites the
 * command line so that it runs under the platform's mechanism (bubblewrap or Landlock on Linux,
 * Seatbelt on macOS) and adds the environment markers commands look for. When no mechanism can
 * confine the command it throws SandboxUnavailableError; it never hands back an unconfined
 * command for a confining policy, nor one that could read a path the guard's rules deny.
 */
import type { SandboxPolicy } from "../protocol/policy.js";
import { NETWORK_DISABLED_ENV_VAR } from "../exec/env.js";
import { bwrapArgv, bwrapStatus, networkAllowed } from "./bwrap.js";
import type { DenyView, FileSystemGuard } from "./fs-guard.js";
import { landlockArgv, landlockStatus } from "./landlock.js";
import { seatbeltArgv } from "./seatbelt.js";
import { seccompArch, seccompProgramPath } from "./seccomp.js";

/** The descriptor bwrap reads the seccomp filter from. */
const SECCOMP_FD = 3;

export type SandboxType = "none" | "bwrap" | "landlock" | "seatbelt";

export interface SandboxedCommand {
  argv: string[];
  env: Record<string, string>;
  sandbox: SandboxType;
}

export class SandboxUnavailableError extends Error {
  override name = "SandboxUnavailableError";
}

export interface SandboxRequest {
  policy: SandboxPolicy;
  cwd: string;
  argv: string[];
  env: Record<string, string>;
  /** The command runs on a PTY and needs its controlling terminal (no new session). */
  tty?: boolean;
  platform?: NodeJS.Platform;
  /** Forces a Linux mechanism; defaults to $CODEX_TS_LINUX_SANDBOX of this process. */
  linuxSandbox?: string;
  /**
   * The permission profile's deny list and read-only paths, enforced under every policy: even
   * under danger-full-access the command is wrapped when something is denied.
   */
  guard?: FileSystemGuard;
}

/** Set to `bwrap` or `landlock` to force one Linux mechanism. */
export const LINUX_SANDBOX_ENV_VAR = "CODEX_TS_LINUX_SANDBOX";
/** Set in the command's environment under Seatbelt, as the reference does. */
export const SANDBOX_ENV_VAR = "CODEX_SANDBOX";

const ESCAPE_HATCH = "or, if you trust this task, run with --sandbox danger-full-access.";

/**
 * Wraps argv so it runs confined by `policy` and the guard's rules. danger-full-access with
 * nothing denied returns it unchanged (sandbox "none").
 */
export async function sandboxCommand(req: SandboxRequest): Promise<SandboxedCommand> {
  if (req.argv.length === 0) throw new Error("sandboxCommand: empty command line");
  const deny = req.guard === undefined ? undefined : nonEmpty(req.guard.view());
  if (req.policy.type === "danger-full-access" && deny === undefined) return { argv: [...req.argv], env: { ...req.env }, sandbox: "none" };

  const env: Record<string, string> = { ...req.env };
  if (!networkAllowed(req.policy)) env[NETWORK_DISABLED_ENV_VAR] = "1";

  const platform = req.platform ?? process.platform;
  if (platform === "darwin") {
    env[SANDBOX_ENV_VAR] = "seatbelt";
    return { argv: seatbeltArgv(req.policy, req.cwd, req.argv, req.env, req.guard?.rules, deny), env, sandbox: "seatbelt" };
  }
  if (platform !== "linux") {
    throw new SandboxUnavailableError(
      `codex-ts cannot confine commands on ${platform}: sandboxing is implemented for Linux and macOS only. ` +
        `Run with --sandbox danger-full-access if you trust this task.`,
    );
  }
  return { ...(await linuxCommand(req, env, deny)), env };
}

/** The seccomp program's path for bwrap, or why there is none. */
function filterFor(network: boolean): { path: string } | { problem: string } {
  const arch = seccompArch();
  if (arch === null) return { problem: `the seccomp filter has no version for ${process.arch}` };
  try {
    return { path: seccompProgramPath(arch, network) };
  } catch (err) {
    return { problem: err instanceof Error ? err.message : String(err) };
  }
}

function nonEmpty(view: DenyView): DenyView | undefined {
  return view.hidden.length + view.readOnly.length + view.writable.length > 0 ? view : undefined;
}

async function linuxCommand(req: SandboxRequest, env: Record<string, string>, deny: DenyView | undefined): Promise<Omit<SandboxedCommand, "env">> {
  const forced = (req.linuxSandbox ?? process.env[LINUX_SANDBOX_ENV_VAR] ?? "").trim();
  if (forced !== "" && forced !== "bwrap" && forced !== "landlock") {
    throw new SandboxUnavailableError(`${LINUX_SANDBOX_ENV_VAR}=${forced} is not a sandbox codex-ts knows: use bwrap or landlock, or unset it.`);
  }

  let bwrapProblem = "";
  if (forced !== "landlock") {
    const bwrap = await bwrapStatus(req.cwd, process.env.PATH);
    const filter = bwrap.path === null ? null : filterFor(networkAllowed(req.policy));
    if (bwrap.path !== null && filter !== null && "path" in filter) {
      const options = { policy: req.policy, cwd: req.cwd, argv: req.argv, bwrapPath: bwrap.path, newSession: req.tty !== true, env, deny };
      const argv = bwrapArgv({ ...options, seccompFd: SECCOMP_FD });
      // bwrap takes the filter from a descriptor: a shell opens it there and becomes bwrap.
      return { argv: ["/bin/sh", "-c", `exec "$@" ${SECCOMP_FD}<"$0"`, filter.path, ...argv], sandbox: "bwrap" };
    }
    bwrapProblem = filter === null || "path" in filter ? (bwrap.reason ?? "bubblewrap cannot run") : filter.problem;
    if (forced === "bwrap") {
      throw new SandboxUnavailableError(
        `codex-ts cannot confine commands with bubblewrap (forced by ${LINUX_SANDBOX_ENV_VAR}=bwrap): ${bwrapProblem}. ` +
          `Install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap) or enable unprivileged user namespaces, ` +
          `unset ${LINUX_SANDBOX_ENV_VAR} to allow the Landlock fallback, ${ESCAPE_HATCH}`,
      );
    }
  }

  const landlock = await landlockStatus();
  if (landlock.available && landlock.python !== undefined) {
    const argv = landlockArgv({ policy: req.policy, cwd: req.cwd, argv: req.argv, env, python: landlock.python, deny });
    return { argv, sandbox: "landlock" };
  }
  const landlockProblem = landlock.reason ?? "Landlock is unavailable";
  if (forced === "landlock") {
    throw new SandboxUnavailableError(
      `codex-ts cannot confine commands with Landlock (forced by ${LINUX_SANDBOX_ENV_VAR}=landlock): ${landlockProblem}. ` +
        `Unset ${LINUX_SANDBOX_ENV_VAR} to use bubblewrap, ${ESCAPE_HATCH}`,
    );
  }
  throw new SandboxUnavailableError(
    `codex-ts cannot confine commands on this machine: bubblewrap is missing or cannot create user namespaces ` +
      `(${bwrapProblem}), and Landlock is unavailable (${landlockProblem}). ` +
      `Install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap) or enable unprivileged user namespaces; ${ESCAPE_HATCH}`,
  );
}
