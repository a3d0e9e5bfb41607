/**
 * What the sandbox probes share: the Linux mechanisms to run each probe under (bubblewrap and
 * the Landlock fallback, forced one at a time), a folder outside every writable root, sandboxed
 * helper processes started the way codex-ts starts commands, and waiting on a condition with a
 * deadline instead of a fixed sleep.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, realpathSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join, relative } from "node:path";
import type { SandboxPolicy } from "../../src/protocol/policy.js";
import { findBwrap } from "../../src/sandbox/bwrap.js";
import { landlockStatus } from "../../src/sandbox/landlock.js";
import { sandboxCommand } from "../../src/sandbox/launcher.js";

export type LinuxMechanism = "bwrap" | "landlock";

/** Each Linux mechanism with the reason it cannot run here (false when it can). */
export async function linuxMechanisms(cwd: string = process.cwd()): Promise<Array<{ mechanism: LinuxMechanism; skip: string | false }>> {
  if (process.platform !== "linux") return [];
  const landlock = await landlockStatus();
  return [
    { mechanism: "bwrap", skip: (await findBwrap(cwd)) === null ? "bubblewrap cannot run here" : false },
    { mechanism: "landlock", skip: landlock.available ? false : `Landlock is unavailable: ${landlock.reason ?? ""}` },
  ];
}

const isInside = (dir: string, path: string): boolean => {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith("..") && !rel.startsWith("/"));
};

/**
 * Where a test may make folders under no writable root of any policy (not /tmp, not TMPDIR): the
 * scratch folder `npm test` makes for it (scripts/in-scratch.mjs removes it with whatever a killed
 * test left there), else /var/tmp.
 */
export const OUTSIDE_PARENT = process.env.CODEX_TS_TEST_OUTSIDE ?? "/var/tmp";

/** A fresh folder under no writable root of any policy (not /tmp, not TMPDIR), or null. */
export function makeOutside(): string | null {
  const roots = [realpathSync("/tmp"), realpathSync(tmpdir())];
  for (const parent of [OUTSIDE_PARENT, homedir()]) {
    try {
      const real = realpathSync(parent);
      if (roots.some((root) => isInside(root, real))) continue;
      return realpathSync(mkdtempSync(join(real, "codex-ts-outside-")));
    } catch {
      // Not usable; try the next.
    }
  }
  return null;
}

export const workspaceWrite = (extra: string[] = []): SandboxPolicy => ({
  type: "workspace-write",
  writable_roots: extra,
  network_access: false,
  exclude_slash_tmp: false,
  exclude_tmpdir_env_var: false,
});

/** Starts `argv` confined as codex-ts confines a command, in its own process group; stop it with `stopGroup`. */
export async function startConfined(mechanism: LinuxMechanism, policy: SandboxPolicy, cwd: string, argv: string[]): Promise<ChildProcess> {
  const command = await sandboxCommand({ policy, cwd, argv, env: { PATH: process.env.PATH ?? "/usr/bin:/bin" }, linuxSandbox: mechanism });
  const [file = "", ...args] = command.argv;
  return spawn(file, args, { cwd, env: command.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
}

export function stopGroup(child: ChildProcess): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/** Polls `condition` until it holds or `ms` pass; true when it held. */
export async function waitFor(condition: () => boolean, ms: number, everyMs = 20): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (condition()) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
