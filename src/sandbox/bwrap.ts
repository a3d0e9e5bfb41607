/**
 * Linux confinement with bubblewrap (`bwrap`). The command sees the host file system read-only,
 * with the writable roots bound back read-write and the protected folders inside them (`.git`,
 * `.codex`, and the real git directory a `.git` file points to) bound read-only over that. It
 * gets its own PID namespace and a fresh /proc and /dev, and, unless the policy allows network
 * access, its own network namespace, which holds nothing but a loopback interface.
 *
 * bwrap applies its mount options in the order given and a later mount covers an earlier one at
 * the same place, so the order of the argv built here is part of its meaning: the read-only root
 * first, then /dev, then the writable roots from the shallowest to the deepest, then every
 * protected folder, then what a permission profile denies or keeps read-only (bwrap-deny.ts),
 * and /proc last. Under full access a deny list still needs bwrap: then `/` is bound as it is,
 * devices included, and only the denied paths are masked.
 */
import { spawn } from "node:child_process";
import { accessSync, constants, existsSync, realpathSync, statSync } from "node:fs";
import { delimiter, isAbsolute, join, resolve } from "node:path";
import type { SandboxPolicy } from "../protocol/policy.js";
import { bwrapDenyArgs } from "./bwrap-deny.js";
import type { DenyView } from "./fs-guard.js";
import { protectedPaths } from "./protected-paths.js";
import { isUnder, trustedRoots, writableRoots } from "./writable-roots.js";

export interface BwrapOptions {
  policy: SandboxPolicy;
  cwd: string;
  argv: string[];
  bwrapPath: string;
  /** Run in a new session (setsid). PTY sessions pass false: they need their controlling terminal. */
  newSession: boolean;
  /** The command's environment, whose TMPDIR may be a writable root; defaults to process.env. */
  env?: NodeJS.ProcessEnv | Record<string, string>;
  /** A descriptor bwrap reads the seccomp program from (seccomp.ts), loaded just before the command. */
  seccompFd?: number;
  /** Paths a permission profile hides or keeps read-only (bwrap-deny.ts); none when absent. */
  deny?: DenyView;
}

export function bwrapArgv(options: BwrapOptions): string[] {
  const { policy, cwd, argv, bwrapPath, newSession } = options;
  const args = [bwrapPath, "--die-with-parent"];
  if (newSession) args.push("--new-session");
  if (policy.type === "danger-full-access") {
    // Only a deny list brings full access here: everything as it is, devices included, minus the denied paths.
    args.push("--unshare-pid", "--dev-bind", "/", "/");
  } else {
    args.push("--unshare-pid", "--ro-bind", "/", "/", "--dev", "/dev");
  }

  const roots = policy.type === "workspace-write" ? existingRoots(writableRoots(policy, cwd, options.env ?? process.env)) : [];
  const protectedList = protectedPaths(roots);
  for (const root of roots) args.push("--bind", root, root);
  for (const path of protectedList) args.push("--ro-bind", path, path);
  if (options.deny) {
    const root = policy.type === "danger-full-access" ? "rw" : "ro";
    args.push(...bwrapDenyArgs(options.deny, { root, writableRoots: roots, protectedPaths: protectedList }));
  }

  if (!networkAllowed(policy)) args.push("--unshare-net");
  if (options.seccompFd !== undefined) args.push("--seccomp", String(options.seccompFd));
  args.push("--proc", "/proc", "--chdir", resolve(cwd), "--", ...argv);
  return args;
}

export function networkAllowed(policy: SandboxPolicy): boolean {
  switch (policy.type) {
    case "danger-full-access":
      return true;
    case "read-only":
      return false;
    case "workspace-write":
      return policy.network_access;
  }
}

/**
 * Writable roots that exist, canonical, shallowest first; a root reached through a link a
 * command could have planted is left out (trustedRoots).
 */
function existingRoots(roots: readonly string[]): string[] {
  // A root that does not exist cannot be written to, and bwrap would refuse to bind it.
  return trustedRoots(roots).filter((root) => existsSync(root));
}

/**
 * Looks `name` up on PATH, skipping relative PATH entries and any candidate inside `cwd`: a
 * workspace must not be able to plant the program that is supposed to confine it.
 */
export function findOnPath(name: string, cwd: string, pathEnv: string | undefined = process.env.PATH): string | null {
  const workspace = canonical(cwd);
  for (const dir of (pathEnv ?? "").split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
    } catch {
      continue;
    }
    if (isUnder(workspace, canonical(candidate)) || isUnder(resolve(cwd), candidate)) continue;
    return candidate;
  }
  return null;
}

function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

export interface BwrapStatus {
  /** The usable bwrap, or null. */
  path: string | null;
  /** Why it cannot be used, when path is null. */
  reason?: string;
}

const PROBE_TIMEOUT_MS = 5000;
const probes = new Map<string, Promise<string | null>>();

/**
 * Finds a bwrap that can actually create the namespaces we need. The probe (running `true`
 * under the same kind of sandbox) happens once per bwrap path per process.
 */
export async function bwrapStatus(cwd: string = process.cwd(), pathEnv: string | undefined = process.env.PATH): Promise<BwrapStatus> {
  const path = findOnPath("bwrap", cwd, pathEnv);
  if (path === null) return { path: null, reason: "bubblewrap (bwrap) is not installed or not on PATH" };
  let probe = probes.get(path);
  if (probe === undefined) {
    probe = probeBwrap(path);
    probes.set(path, probe);
  }
  const problem = await probe;
  // Only success is remembered: a probe that failed (a timeout on a loaded machine, say) is
  // tried again for the next command instead of disabling the sandbox for the whole run.
  if (problem !== null) probes.delete(path);
  return problem === null ? { path } : { path: null, reason: `${path} cannot create a sandbox: ${problem}` };
}

export async function findBwrap(cwd?: string): Promise<string | null> {
  return (await bwrapStatus(cwd)).path;
}

/** Resolves to null when bwrap works, else to a description of the failure. */
function probeBwrap(path: string): Promise<string | null> {
  return new Promise((resolvePromise) => {
    const child = spawn(path, ["--ro-bind", "/", "/", "--unshare-pid", "--unshare-net", "--proc", "/proc", "--dev", "/dev", "true"], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    let done = false;
    const finish = (problem: string | null): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolvePromise(problem);
    };
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      finish(`the test run did not finish within ${PROBE_TIMEOUT_MS / 1000} s`);
    }, PROBE_TIMEOUT_MS);
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 2000) stderr += chunk.toString("utf8");
    });
    child.on("error", (err) => finish(err.message));
    child.on("close", (code, signal) => {
      if (code === 0) finish(null);
      else finish(stderr.trim() || (signal ? `killed by ${signal}` : `exit status ${code}`));
    });
  });
}
