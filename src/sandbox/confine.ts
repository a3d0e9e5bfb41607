/**
 * Confines a command with the platform's mechanism, once launcher.ts found that one is needed:
 * Seatbelt on macOS, bubblewrap on Linux with Landlock as the fallback. Loaded on the first
 * command that needs confining.
 */
import { NETWORK_DISABLED_ENV_VAR } from "../exec/env.js";
import { bwrapArgv, bwrapStatus, networkAllowed } from "./bwrap.js";
import type { DenyView } from "./fs-guard.js";
import { landlockArgv, landlockRealRoots, landlockStatus } from "./landlock.js";
import { landlockEnforceable } from "./landlock-deny.js";
import { LINUX_SANDBOX_ENV_VAR, nonEmpty, SANDBOX_ENV_VAR, SandboxUnavailableError, type SandboxedCommand, type SandboxRequest } from "./sandbox-request.js";
import { seatbeltArgv } from "./seatbelt.js";
import { seccompArch, seccompProgramPath } from "./seccomp.js";
import { errorMessage } from "../util/errors.js";

/** The descriptor bwrap reads the seccomp filter from. */
const SECCOMP_FD = 3;

const ESCAPE_HATCH = "or, if you trust this task, run with --sandbox danger-full-access.";

/** `req.argv` confined by its policy and `deny` (the guard's view, undefined when it denies nothing). */
export async function confinedCommand(req: SandboxRequest, deny: DenyView | undefined): Promise<SandboxedCommand> {
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
  try {
    return { ...(await linuxCommand(req, env, deny)), env };
  } catch (err) {
    // An approved run outside the sandbox that only the built-in denials would confine: with
    // nothing here to confine it, it runs as approved, and the user hears what stays readable.
    if (!(err instanceof SandboxUnavailableError) || req.policy.type !== "danger-full-access" || deny === undefined || !onlyBuiltIn(deny)) throw err;
    const why = `No sandbox can be set up on this machine (${err.message}) for the commands you let run outside the sandbox`;
    req.guard?.warnOnce("unconfined", unenforcedWarning(why, deny.hidden.map((entry) => entry.path)));
    return { argv: [...req.argv], env: { ...req.env }, sandbox: "none" };
  }
}

/** Whether everything in the view is a built-in denial (none of the user's own rules). */
function onlyBuiltIn(view: DenyView): boolean {
  return view.readOnly.length === 0 && view.writable.length === 0 && view.hidden.every((entry) => entry.byDefault === true);
}

/**
 * The one warning about built-in denials a mechanism leaves out: why, what stays readable, and
 * how to have them enforced.
 */
function unenforcedWarning(why: string, paths: readonly string[]): string {
  return (
    `${why}, so codex-ts's built-in denials (.env files, SSH private keys) are not enforced there: commands can read ${listed(paths)}, ` +
    `and later matches in the same places (apply_patch and view_image still refuse them). To enforce them, make bubblewrap usable ` +
    `(install it, or allow unprivileged user namespaces), or deny them in a permission profile of your own ` +
    `(for example \`":project_roots" = { "**/.env" = "none" }\`; see docs/sandbox.md), which is enforced whatever it costs.`
  );
}

/** Up to five paths, and how many more. */
function listed(paths: readonly string[]): string {
  return paths.slice(0, 5).join(", ") + (paths.length > 5 ? ` and ${paths.length - 5} more` : "");
}

/** The seccomp program's path for bwrap, or why there is none. */
function filterFor(network: boolean): { path: string } | { problem: string } {
  const arch = seccompArch();
  if (arch === null) return { problem: `the seccomp filter has no version for ${process.arch}` };
  try {
    return { path: seccompProgramPath(arch, network) };
  } catch (err) {
    return { problem: errorMessage(err) };
  }
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
    let enforced = deny;
    if (deny !== undefined) {
      const split = landlockEnforceable(deny, landlockRealRoots(req.policy, req.cwd, env));
      const chosen = forced === "landlock" ? `${LINUX_SANDBOX_ENV_VAR}=landlock chose it` : `bubblewrap cannot run: ${bwrapProblem}`;
      const why = `Commands are confined with Landlock here (${chosen}), which can hide a file only by also stopping commands from creating, renaming or deleting entries in the writable folders above it`;
      if (split.unenforced.length > 0) req.guard?.warnOnce("landlock", unenforcedWarning(why, split.unenforced));
      if (split.costly.length > 0) {
        req.guard?.warnOnce(
          "landlock-cost",
          `${why}. Your permission profile denies ${listed(split.costly)}: commands cannot create, rename or delete entries directly in the writable folders ` +
            `on the way there (writing existing files still works). bubblewrap has no such cost.`,
        );
      }
      enforced = nonEmpty(split.view);
    }
    if (req.policy.type === "danger-full-access" && enforced === undefined) return { argv: [...req.argv], sandbox: "none" };
    const argv = landlockArgv({ policy: req.policy, cwd: req.cwd, argv: req.argv, env, python: landlock.python, deny: enforced });
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
