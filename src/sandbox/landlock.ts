/**
 * Linux fallback confinement when bubblewrap cannot run (no bwrap, or no unprivileged user
 * namespaces): Landlock for the file system and a seccomp filter for the network.
 *
 * Node cannot make these system calls itself, so a small Python 3 program (below, passed with
 * `python3 -I -S -c`) sets the restrictions up in its own process and then execs the command,
 * which inherits them along with every process it starts:
 *
 * 1. A Landlock ruleset that handles every write-type file-system right the running kernel
 *    knows (the set grows with the Landlock ABI version), with rules granting those rights
 *    beneath each writable root and on the few device nodes a shell writes to (/dev/null,
 *    /dev/tty, the PTYs, ...). Reads and execution are not restricted, unless a permission
 *    profile denies paths: then they are granted on everything but those (landlock-deny.ts),
 *    and writes are granted beneath the roots but those. On ABI 6 and later the
 *    ruleset also stops signals to processes outside the sandbox and, when the network is off,
 *    connections to abstract Unix sockets outside it.
 * 2. PR_SET_NO_NEW_PRIVS, so no set-user-ID program can shed the restrictions.
 * 3. The seccomp filter of seccomp.ts (the one bubblewrap loads too): no typing into the
 *    terminal, no other ABIs, and with the network off no socket but Unix ones and no
 *    connection to any socket at all (a named Unix socket outside the roots included).
 * 4. landlock_restrict_self, then execvp.
 *
 * Limitations, compared with bubblewrap:
 * - Landlock can only grant rights beneath a directory, never take them back deeper down, so
 *   `.git` and `.codex` inside a writable root stay WRITABLE here. Only bwrap protects them.
 * - Processes are not isolated (no PID namespace), and on kernels older than Landlock ABI 6
 *   a sandboxed command can still signal processes outside the sandbox.
 * - Landlock does not cover metadata: chmod, chown, utimes and extended attributes still work
 *   on files outside the roots (for files the user may change anyway).
 * - Sockets passed in from outside (inherited descriptors) keep working; the same holds under
 *   bwrap.
 * - Writes to devices are granted on a short list (/dev/null, /dev/zero, /dev/full, the random
 *   devices, /dev/tty, /dev/ptmx, /dev/pts) rather than all of /dev, and device nodes cannot be
 *   made even inside the roots, so that a command run as root cannot write to a disk device.
 * - Only x86_64 and aarch64 are supported; elsewhere the probe fails and the launcher refuses.
 */
import { spawn } from "node:child_process";
import { accessSync, constants, realpathSync } from "node:fs";
import type { SandboxPolicy } from "../protocol/policy.js";
import { findOnPath, networkAllowed } from "./bwrap.js";
import type { DenyView } from "./fs-guard.js";
import { LANDLOCK_DENY_PYTHON, landlockRootArgs } from "./landlock-deny.js";
import { seccompArch, seccompProgram } from "./seccomp.js";
import { trustedRoots, writableRoots } from "./writable-roots.js";

/**
 * The helper program. Arguments: MODE NET LC FILTER ROOT... -- COMMAND ARG...
 * MODE is `run` (exec COMMAND) or `probe` (set everything up, print the ABI, exit 0).
 * NET is 1 when the network is allowed. LC is `=VALUE` or `-`: the LC_CTYPE the command must
 * see, because Python itself sets LC_CTYPE when it starts under the C locale. FILTER is the
 * seccomp program (seccomp.ts) in hex.
 */
export const LANDLOCK_PROGRAM = String.raw`
import ctypes, os, stat, sys

def fail(message, code=1):
    sys.stderr.write("codex-ts sandbox (landlock): " + message + "\n")
    sys.stderr.flush()
    os._exit(code)

args = sys.argv[1:]
if "--" not in args or len(args) < 5:
    fail("usage: MODE NET LC FILTER ROOT... -- COMMAND ARG...", 2)
split = args.index("--")
mode, network, lc, program = args[0], args[1] == "1", args[2], bytes.fromhex(args[3])
roots, command = args[4:split], args[split + 1:]
# A deny list (landlock-deny.ts): "!PATH" is hidden, "=PATH" read-only, the rest writable roots.
hidden = [root[1:] for root in roots if root.startswith("!")]
read_only = [root[1:] for root in roots if root.startswith("=")]
roots = [root for root in roots if root[:1] not in ("!", "=")]
if mode == "run" and not command:
    fail("no command given", 2)

if os.uname().machine not in ("x86_64", "aarch64", "arm64"):
    fail("unsupported architecture " + os.uname().machine)
NR_CREATE_RULESET, NR_ADD_RULE, NR_RESTRICT_SELF = 444, 445, 446

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
libc.prctl.restype = ctypes.c_int

def check(result, what):
    if result < 0:
        err = ctypes.get_errno()
        fail(what + " failed: " + os.strerror(err))
    return result

abi = libc.syscall(ctypes.c_long(NR_CREATE_RULESET), None, ctypes.c_size_t(0), ctypes.c_uint32(1))
if abi < 1:
    fail("Landlock is not available in this kernel (" + os.strerror(ctypes.get_errno()) + ")")

WRITE_FILE, REMOVE_DIR, REMOVE_FILE, MAKE_CHAR = 1 << 1, 1 << 4, 1 << 5, 1 << 6
MAKE_DIR, MAKE_REG, MAKE_SOCK, MAKE_FIFO = 1 << 7, 1 << 8, 1 << 9, 1 << 10
MAKE_BLOCK, MAKE_SYM, REFER, TRUNCATE, IOCTL_DEV = 1 << 11, 1 << 12, 1 << 13, 1 << 14, 1 << 15
handled = (WRITE_FILE | REMOVE_DIR | REMOVE_FILE | MAKE_CHAR | MAKE_DIR | MAKE_REG | MAKE_SOCK
           | MAKE_FIFO | MAKE_BLOCK | MAKE_SYM)
if abi >= 2: handled |= REFER
if abi >= 3: handled |= TRUNCATE
if abi >= 5: handled |= IOCTL_DEV
# No device node is made anywhere: one made in a root and written through would reach the
# device (a disk, the kernel log) as if the write stayed inside.
WRITE_RIGHTS = handled & ~(MAKE_CHAR | MAKE_BLOCK)
READ_RIGHTS = (1 << 0) | (1 << 2)
if hidden: handled |= READ_RIGHTS | (1 << 3)
FILE_RIGHTS = (WRITE_FILE | TRUNCATE | IOCTL_DEV | READ_RIGHTS) & handled
SCOPE_ABSTRACT_UNIX, SCOPE_SIGNAL = 1, 2
scoped = 0
if abi >= 6:
    scoped = SCOPE_SIGNAL | (0 if network else SCOPE_ABSTRACT_UNIX)

class RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]

class PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]

attr = RulesetAttr(handled, 0, scoped)
attr_size = 24 if scoped else 8
ruleset = check(libc.syscall(ctypes.c_long(NR_CREATE_RULESET), ctypes.byref(attr), ctypes.c_size_t(attr_size),
                             ctypes.c_uint32(0)), "landlock_create_ruleset")

def allow(path, rights, exact=False):
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return
    try:
        # A root arrives canonical: if it no longer leads to itself, a link was swapped in since.
        if exact and os.readlink("/proc/self/fd/%d" % fd) != path:
            return
        if not stat.S_ISDIR(os.fstat(fd).st_mode):
            rights &= FILE_RIGHTS
        if rights:
            rule = PathBeneath(rights, fd)
            check(libc.syscall(ctypes.c_long(NR_ADD_RULE), ctypes.c_int(ruleset), ctypes.c_int(1),
                               ctypes.byref(rule), ctypes.c_uint32(0)), "landlock_add_rule " + path)
    finally:
        os.close(fd)

${LANDLOCK_DENY_PYTHON}
if hidden or read_only:
    grant_with_denials(roots, read_only, hidden, WRITE_RIGHTS, READ_RIGHTS)
else:
    for root in roots:
        allow(root, WRITE_RIGHTS, True)
for device in ("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty", "/dev/ptmx", "/dev/pts"):
    allow(device, FILE_RIGHTS)

check(libc.prctl(ctypes.c_int(38), ctypes.c_ulong(1), ctypes.c_ulong(0), ctypes.c_ulong(0), ctypes.c_ulong(0)),
      "prctl(PR_SET_NO_NEW_PRIVS)")

# The filter arrives assembled (struct sock_filter entries, 8 bytes each).
class SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_char_p)]

fprog = SockFprog(len(program) // 8, program)
check(libc.prctl(ctypes.c_int(22), ctypes.c_ulong(2), ctypes.byref(fprog), ctypes.c_ulong(0), ctypes.c_ulong(0)),
      "prctl(PR_SET_SECCOMP)")

check(libc.syscall(ctypes.c_long(NR_RESTRICT_SELF), ctypes.c_int(ruleset), ctypes.c_uint32(0)), "landlock_restrict_self")
os.close(ruleset)

if mode == "probe":
    sys.stdout.write(str(abi) + "\n")
    sys.stdout.flush()
    os._exit(0)

if lc == "-":
    os.environ.pop("LC_CTYPE", None)
else:
    os.environ["LC_CTYPE"] = lc[1:]
try:
    os.execvp(command[0], command)
except FileNotFoundError:
    fail(command[0] + ": command not found", 127)
except PermissionError:
    fail(command[0] + ": permission denied", 126)
except OSError as error:
    fail(command[0] + ": cannot execute: " + error.strerror, 126)
`;

/** Interpreters tried before PATH: system ones, which a version manager's shim cannot shadow. */
const SYSTEM_PYTHONS = ["/usr/bin/python3", "/bin/python3", "/usr/local/bin/python3"];

/**
 * The Python 3 to run the helper with. System locations come first: a version manager's shim
 * (pyenv) is slower to start and prepends its own directories to the command's PATH.
 */
export function findPython3(cwd: string = process.cwd(), pathEnv: string | undefined = process.env.PATH): string | null {
  for (const candidate of SYSTEM_PYTHONS) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Try the next one.
    }
  }
  return findOnPath("python3", cwd, pathEnv);
}

/** The seccomp program for this machine in hex; empty on an architecture the helper refuses anyway. */
function filterHex(network: boolean): string {
  const arch = seccompArch();
  return arch === null ? "" : seccompProgram(arch, network).toString("hex");
}

export interface LandlockOptions {
  policy: SandboxPolicy;
  cwd: string;
  argv: string[];
  /** The command's environment (TMPDIR, LC_CTYPE); defaults to process.env. */
  env?: NodeJS.ProcessEnv | Record<string, string>;
  /** The interpreter; defaults to findPython3(). */
  python?: string;
  /** Paths a permission profile hides or keeps read-only (landlock-deny.ts); none when absent. */
  deny?: DenyView;
}

export function landlockArgv(options: LandlockOptions): string[] {
  const { policy, cwd, argv } = options;
  const env = options.env ?? process.env;
  const python = options.python ?? findPython3(cwd) ?? "python3";
  const roots = landlockRoots(policy, cwd, env);
  const rootArgs = options.deny ? landlockRootArgs(existingRealPaths(roots), options.deny) : roots;
  const lc = env.LC_CTYPE === undefined ? "-" : `=${env.LC_CTYPE}`;
  const network = networkAllowed(policy);
  return [python, "-I", "-S", "-c", LANDLOCK_PROGRAM, "run", network ? "1" : "0", lc, filterHex(network), ...rootArgs, "--", ...argv];
}

/** Where the helper grants writes under `policy`. */
function landlockRoots(policy: SandboxPolicy, cwd: string, env: NodeJS.ProcessEnv | Record<string, string>): string[] {
  return policy.type === "workspace-write" ? trustedRoots(writableRoots(policy, cwd, env)) : policy.type === "danger-full-access" ? ["/"] : [];
}

/** The writable roots as real paths, what a deny view is compared with (landlockEnforceable). */
export function landlockRealRoots(policy: SandboxPolicy, cwd: string, env: NodeJS.ProcessEnv | Record<string, string>): string[] {
  return existingRealPaths(landlockRoots(policy, cwd, env));
}

/** The deny list is matched against real paths, so the roots must be real paths too. */
function existingRealPaths(paths: readonly string[]): string[] {
  return paths.flatMap((path) => {
    try {
      return [realpathSync(path)];
    } catch {
      return [];
    }
  });
}

export interface LandlockStatus {
  available: boolean;
  /** The kernel's Landlock ABI version, when available. */
  abi?: number;
  python?: string;
  /** Why it is unavailable. */
  reason?: string;
}

const PROBE_TIMEOUT_MS = 5000;
let cached: Promise<LandlockStatus> | undefined;

/** Checks once per process that python3 exists and the helper can confine itself. */
export function landlockStatus(): Promise<LandlockStatus> {
  const probe = (cached ??= probeLandlock());
  // As for bwrap, a failed probe is not remembered: the next command probes again.
  void probe.then((status) => {
    if (!status.available && cached === probe) cached = undefined;
  });
  return probe;
}

export async function landlockAvailable(): Promise<boolean> {
  return (await landlockStatus()).available;
}

async function probeLandlock(): Promise<LandlockStatus> {
  if (process.platform !== "linux") return { available: false, reason: "Landlock exists only on Linux" };
  const python = findPython3();
  if (python === null) return { available: false, reason: "python3, which the Landlock helper needs, is not installed" };
  const { code, stdout, stderr } = await runProbe(python, ["-I", "-S", "-c", LANDLOCK_PROGRAM, "probe", "0", "-", filterHex(false), "--"]);
  const abi = Number(stdout.trim());
  if (code === 0 && Number.isInteger(abi) && abi >= 1) return { available: true, abi, python };
  const detail = stderr.trim().replace(/^codex-ts sandbox \(landlock\): /, "") || `exit status ${code}`;
  return { available: false, python, reason: `the Landlock helper failed: ${detail}` };
}

function runProbe(command: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let done = false;
    const finish = (code: number | null, extra = ""): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ code, stdout, stderr: stderr + extra });
    };
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      finish(null, `did not finish within ${PROBE_TIMEOUT_MS / 1000} s`);
    }, PROBE_TIMEOUT_MS);
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 2000) stderr += chunk.toString("utf8");
    });
    child.on("error", (err) => finish(null, err.message));
    child.on("close", (code) => finish(code));
  });
}
