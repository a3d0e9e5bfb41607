/**
 * macOS confinement with Seatbelt: `/usr/bin/sandbox-exec -p PROFILE -DNAME=VALUE… -- command`.
 * The profile denies everything by default, then allows what ordinary command-line tools need:
 * running programs, reading any file, querying the system, using terminals and /dev/null. Writes
 * are allowed only beneath the writable roots and never inside their protected folders, and the
 * network only when the policy says so.
 *
 * Paths reach the profile as parameters rather than as text inside it, so no path needs quoting.
 * Seatbelt matches the resolved path of a file (/private/var/…, not /var/…), so every path is
 * canonicalized with realpath when it exists.
 */
import { lstatSync, realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import type { SandboxPolicy } from "../protocol/policy.js";
import { networkAllowed } from "./bwrap.js";
import { readGitdirFile } from "./protected-paths.js";
import type { DenyView } from "./fs-guard.js";
import type { FileSystemRules } from "./fs-rules.js";
import { seatbeltDenyClauses } from "./seatbelt-deny.js";
import { PROTECTED_SUBPATHS, writableRoots } from "./writable-roots.js";

export const SANDBOX_EXEC_PATH = "/usr/bin/sandbox-exec";

const BASE_PROFILE = `(version 1)
(deny default)

; Starting programs and looking after the processes of this sandbox.
(allow process-exec)
(allow process-fork)
(allow signal (target same-sandbox))
(allow process-info* (target same-sandbox))

; Any file may be read; where writes may go is decided further down.
(allow file-read*)

; System facts and services that compilers, interpreters and the C library ask for.
(allow sysctl-read)
(allow user-preference-read)
(allow ipc-posix-sem)
(allow ipc-posix-shm-read-data (ipc-posix-name "apple.shm.notification_center"))
(allow mach-lookup
  (global-name "com.apple.system.opendirectoryd.libinfo")
  (global-name "com.apple.system.notification_center")
  (global-name "com.apple.system.logger")
  (global-name "com.apple.logd")
  (global-name "com.apple.diagnosticd")
  (global-name "com.apple.cfprefsd.daemon")
  (global-name "com.apple.cfprefsd.agent")
  (global-name "com.apple.CoreServices.coreservicesd")
  (global-name "com.apple.coreservices.launchservicesd")
  (global-name "com.apple.lsd.mapdb")
  (global-name "com.apple.SecurityServer")
  (global-name "com.apple.trustd.agent")
  (global-name "com.apple.fonts")
  (global-name "com.apple.FontObjectsServer"))
(allow iokit-open (iokit-registry-entry-class "RootDomainUserClient"))

; Terminals, and the device files shells write to.
(allow pseudo-tty)
(allow file-read* file-write* file-ioctl (literal "/dev/ptmx") (regex #"^/dev/ttys[0-9]+$"))
(allow file-write-data file-ioctl (literal "/dev/tty"))
(allow file-write-data (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper"))
`;

const NETWORK_PROFILE = `
; The policy allows network access.
(allow network-outbound)
(allow network-inbound)
(allow system-socket)
(allow mach-lookup
  (global-name "com.apple.dnssd.service")
  (global-name "com.apple.SystemConfiguration.DNSConfiguration")
  (global-name "com.apple.SystemConfiguration.configd")
  (global-name "com.apple.networkd")
  (global-name "com.apple.nsurlsessiond"))
`;

export interface SeatbeltProfile {
  profile: string;
  /** Passed to sandbox-exec as -DNAME=VALUE. */
  params: Record<string, string>;
}

export function seatbeltProfile(
  policy: SandboxPolicy,
  cwd: string,
  env: NodeJS.ProcessEnv | Record<string, string> = process.env,
  rules?: FileSystemRules,
  deny?: DenyView,
): SeatbeltProfile {
  const params: Record<string, string> = {};
  let writes = "";
  if (policy.type === "danger-full-access") {
    writes = "\n; The policy allows writing anywhere.\n(allow file-write*)\n";
  } else if (policy.type === "workspace-write") {
    const roots = [...new Set(writableRoots(policy, cwd, env).map(canonicalize))];
    const clauses = roots.map((root, i) => {
      const name = `WRITABLE_ROOT_${i}`;
      params[name] = root;
      const excluded = protectedUnder(root).map((path, j) => {
        const ro = `${name}_RO_${j}`;
        params[ro] = path;
        return ` (require-not (subpath (param "${ro}")))`;
      });
      const subpath = `(subpath (param "${name}"))`;
      return excluded.length === 0 ? `  ${subpath}` : `  (require-all ${subpath}${excluded.join("")})`;
    });
    if (clauses.length > 0) writes = `\n; Writable roots, minus their protected folders.\n(allow file-write*\n${clauses.join("\n")})\n`;
  }
  const network = networkAllowed(policy) ? NETWORK_PROFILE : "";
  const denied = rules ? seatbeltDenyClauses(rules, deny, canonicalize) : { text: "", params: {} };
  return { profile: BASE_PROFILE + writes + network + denied.text, params: { ...params, ...denied.params } };
}

export function seatbeltArgv(
  policy: SandboxPolicy,
  cwd: string,
  argv: string[],
  env?: NodeJS.ProcessEnv | Record<string, string>,
  rules?: FileSystemRules,
  deny?: DenyView,
): string[] {
  const { profile, params } = seatbeltProfile(policy, cwd, env, rules, deny);
  const defines = Object.entries(params).map(([name, value]) => `-D${name}=${value}`);
  return [SANDBOX_EXEC_PATH, "-p", profile, ...defines, "--", ...argv];
}

/** The path with symlinks resolved when it exists (/var → /private/var), else made absolute. */
export function canonicalize(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/**
 * Folders under `root` that stay read-only: `.git` and `.codex` whether or not they exist yet
 * (so they cannot be created either), the target of either when it is a symlink, and the git
 * directory a `.git` file points to.
 */
function protectedUnder(root: string): string[] {
  const paths: string[] = [];
  for (const name of PROTECTED_SUBPATHS) {
    const path = join(root, name);
    paths.push(path);
    let isFile = false;
    try {
      isFile = lstatSync(path).isFile();
    } catch {
      continue;
    }
    paths.push(canonicalize(path));
    if (name === ".git" && isFile) {
      const gitdir = readGitdirFile(path);
      if (gitdir !== null) paths.push(canonicalize(gitdir));
    }
  }
  return [...new Set(paths)];
}
