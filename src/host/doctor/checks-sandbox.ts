/**
 * Doctor checks of confinement, probed for real: which Linux mechanism works (bubblewrap with
 * user namespaces, else Landlock), the kernel's user-namespace switches, Seatbelt on macOS, and
 * one command run under workspace-write that must write inside its folder and be refused outside.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SandboxPolicy } from "../../protocol/policy.js";
import { bwrapStatus } from "../../sandbox/bwrap.js";
import { landlockStatus } from "../../sandbox/landlock.js";
import { sandboxCommand, SandboxUnavailableError } from "../../sandbox/launcher.js";
import { SANDBOX_EXEC_PATH } from "../../sandbox/seatbelt.js";
import { fail, ok, warning, type Finding } from "./report.js";

const INSTALL_BWRAP = "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap) and allow unprivileged user namespaces";

export async function bubblewrapCheck(cwd: string): Promise<Finding> {
  if (process.platform !== "linux") return ok("not used on this system");
  const status = await bwrapStatus(cwd);
  if (status.path !== null) return ok(`${status.path} creates sandboxes`, { bwrap: status.path });
  return warning(status.reason ?? "bubblewrap cannot run", `${INSTALL_BWRAP}; until then the Landlock fallback is used where the kernel has it`);
}

export async function landlockCheck(): Promise<Finding> {
  if (process.platform !== "linux") return ok("not used on this system");
  const status = await landlockStatus();
  if (status.available) return ok(`Landlock ABI ${status.abi ?? "?"} through ${status.python ?? "python3"} (the fallback when bubblewrap cannot run)`);
  return warning(status.reason ?? "Landlock is unavailable", "only matters without bubblewrap: a Linux 5.13+ kernel with Landlock enabled and python3 installed");
}

export function userNamespacesCheck(): Finding {
  if (process.platform !== "linux") return ok("not used on this system");
  const read = (path: string): string | null => {
    try {
      return readFileSync(path, "utf8").trim();
    } catch {
      return null;
    }
  };
  const max = read("/proc/sys/user/max_user_namespaces");
  const clone = read("/proc/sys/kernel/unprivileged_userns_clone");
  const apparmor = read("/proc/sys/kernel/apparmor_restrict_unprivileged_userns");
  const details: Record<string, string> = { "max_user_namespaces": max ?? "not present" };
  if (clone !== null) details["unprivileged_userns_clone"] = clone;
  if (apparmor !== null) details["apparmor_restrict_unprivileged_userns"] = apparmor;
  const root = process.getuid?.() === 0;
  if (max === "0" || (clone === "0" && !root)) {
    return warning("the kernel does not let this user create user namespaces", "sysctl -w user.max_user_namespaces=15000 kernel.unprivileged_userns_clone=1 (or rely on the Landlock fallback)", details);
  }
  if (apparmor === "1" && !root) return warning("AppArmor restricts unprivileged user namespaces", "allow bwrap in an AppArmor profile, or set kernel.apparmor_restrict_unprivileged_userns=0", details);
  return ok("user namespaces are allowed", details);
}

export function seatbeltCheck(): Finding {
  if (process.platform !== "darwin") return ok("macOS only; not used here");
  if (existsSync(SANDBOX_EXEC_PATH)) return ok(`${SANDBOX_EXEC_PATH} is present`);
  return fail(`${SANDBOX_EXEC_PATH} is missing`, "it ships with macOS: check the system's integrity, or run with --sandbox danger-full-access if you trust the task");
}

/** Runs one command under workspace-write in a scratch folder: it must write there and not beside it. */
export async function confinementCheck(): Promise<Finding> {
  const scratch = mkdtempSync(join(tmpdir(), "codex-ts-doctor-"));
  const inside = join(scratch, "workspace");
  const outside = join(scratch, "outside");
  try {
    await import("node:fs/promises").then((fs) => Promise.all([fs.mkdir(inside), fs.mkdir(outside)]));
    // Only the workspace is writable: /tmp and $TMPDIR (which hold both folders) are left out.
    const policy: SandboxPolicy = { type: "workspace-write", writable_roots: [], network_access: false, exclude_slash_tmp: true, exclude_tmpdir_env_var: true };
    const script = `echo in > '${inside}/probe'; echo out > '${outside}/probe' 2>/dev/null; exit 0`;
    let wrapped;
    try {
      wrapped = await sandboxCommand({ policy, cwd: inside, argv: ["/bin/sh", "-c", script], env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } });
    } catch (err) {
      if (err instanceof SandboxUnavailableError) return fail("commands cannot be confined on this machine", err.message.replace(/^codex-ts cannot confine commands[^:]*: /, ""));
      throw err;
    }
    const [program, ...args] = wrapped.argv as [string, ...string[]];
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(program, args, { cwd: inside, env: wrapped.env, stdio: "ignore" });
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      child.on("error", () => resolve(null));
      child.on("close", (status) => {
        clearTimeout(timer);
        resolve(status);
      });
    });
    const wroteInside = existsSync(join(inside, "probe"));
    const wroteOutside = existsSync(join(outside, "probe"));
    const details = { mechanism: wrapped.sandbox, "write inside the workspace": wroteInside ? "allowed" : "refused", "write beside it": wroteOutside ? "ALLOWED" : "refused" };
    if (wroteOutside) return fail(`a ${wrapped.sandbox} sandbox let a command write outside its workspace`, "do not rely on the sandbox here; report this with `codex-ts doctor --json`", details);
    if (!wroteInside || code !== 0) return fail(`a ${wrapped.sandbox} sandbox could not run a command (exit ${code ?? "signal"})`, "run `codex-ts sandbox -s workspace-write -- true` to see its error", details);
    return ok(`workspace-write confines commands with ${wrapped.sandbox}: writes inside the workspace only`, details);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
