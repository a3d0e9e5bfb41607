/**
 * The seccomp filter every sandboxed command runs under on Linux, as a classic BPF program in
 * the kernel's binary layout (struct sock_filter: u16 code, u8 jt, u8 jf, u32 k). One program
 * serves both mechanisms: bubblewrap loads it with `--seccomp FD`, the Landlock helper with
 * prctl(PR_SET_SECCOMP).
 *
 * Always refused (EPERM): the TIOCSTI and TIOCLINUX ioctls (typing into a terminal), x32 system
 * calls, and every call made through another architecture's ABI (32-bit x86 on x86_64, AArch32
 * on arm64), whose numbers differ from the ones checked here.
 *
 * With the network off, also refused: `socket()` for any family but AF_UNIX, `io_uring_setup`
 * (io_uring can open and connect sockets without those system calls), `connect()` on any socket
 * (a named Unix socket such as the Docker or D-Bus socket, or $SSH_AUTH_SOCK, lies outside every
 * network namespace, and a socket's path cannot be inspected here, so no connection is made at
 * all, as in the reference), `sendto()` with a destination address (a datagram to a named
 * socket), `sendmmsg()`, and Unix datagram sockets altogether (`socket()` and `socketpair()` of
 * type SOCK_DGRAM): `sendmsg()` carries its destination in memory a filter cannot read, and only
 * a datagram socket sends to an address (a stream or seqpacket socket must be connected, which it
 * cannot be). The reference refuses `sendmsg()` itself. Stream and seqpacket pairs
 * (`socketpair`) keep working.
 */
import { closeSync, constants, mkdtempSync, openSync, readlinkSync, rmdirSync, unlinkSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type SeccompArch = "x86_64" | "aarch64";

interface ArchNumbers {
  auditArch: number;
  ioctl: number;
  socket: number;
  connect: number;
  sendto: number;
  sendmmsg: number;
  socketpair: number;
  ioUringSetup: number;
}

const NUMBERS: Record<SeccompArch, ArchNumbers> = {
  x86_64: { auditArch: 0xc000003e, ioctl: 16, socket: 41, connect: 42, sendto: 44, sendmmsg: 307, socketpair: 53, ioUringSetup: 425 },
  aarch64: { auditArch: 0xc00000b7, ioctl: 29, socket: 198, connect: 203, sendto: 206, sendmmsg: 269, socketpair: 199, ioUringSetup: 425 },
};

// BPF opcodes: BPF_LD|BPF_W|BPF_ABS, BPF_ALU|BPF_AND|BPF_K, BPF_JMP|BPF_JEQ|BPF_K, BPF_JMP|BPF_JGE|BPF_K, BPF_RET|BPF_K.
const LD = 0x20;
const AND = 0x54;
const JEQ = 0x15;
const JGE = 0x35;
const RET = 0x06;
const ALLOW = 0x7fff0000;
const EPERM = 0x00050000 | 1;
// Offsets in struct seccomp_data { int nr; u32 arch; u64 ip; u64 args[6]; } (little-endian words).
const OFF_NR = 0;
const OFF_ARCH = 4;
const argLow = (n: number): number => 16 + 8 * n;
const argHigh = (n: number): number => 16 + 8 * n + 4;
const AF_UNIX = 1;
const SOCK_DGRAM = 2;
/** The type argument's low bits; SOCK_NONBLOCK and SOCK_CLOEXEC ride above them. */
const SOCK_TYPE_MASK = 0xf;
const TIOCSTI = 0x5412;
const TIOCLINUX = 0x541c;
const X32_SYSCALL_BIT = 0x40000000;

type Op = { op: "ld"; k: number } | { op: "and"; k: number } | { op: "ret"; k: number } | { op: "jeq" | "jge"; k: number; yes?: string; no?: string } | { op: "label"; name: string };

/** The machine name as the helper's `os.uname()` and Node's `process.arch` spell it, or null. */
export function seccompArch(arch: string = process.arch): SeccompArch | null {
  if (arch === "x64" || arch === "x86_64") return "x86_64";
  if (arch === "arm64" || arch === "aarch64") return "aarch64";
  return null;
}

export function seccompProgram(arch: SeccompArch, network: boolean): Buffer {
  const nr = NUMBERS[arch];
  const code: Op[] = [{ op: "ld", k: OFF_ARCH }, { op: "jeq", k: nr.auditArch, no: "deny" }, { op: "ld", k: OFF_NR }];
  if (arch === "x86_64") code.push({ op: "jge", k: X32_SYSCALL_BIT, yes: "deny" });
  code.push({ op: "jeq", k: nr.ioctl, yes: "ioctl" });
  if (!network) {
    code.push(
      { op: "jeq", k: nr.socket, yes: "socket" },
      { op: "jeq", k: nr.socketpair, yes: "socketpair" },
      { op: "jeq", k: nr.sendto, yes: "sendto" },
      { op: "jeq", k: nr.connect, yes: "deny" },
      { op: "jeq", k: nr.sendmmsg, yes: "deny" },
      { op: "jeq", k: nr.ioUringSetup, yes: "deny" },
    );
  }
  code.push(
    { op: "ret", k: ALLOW },
    { op: "label", name: "ioctl" },
    { op: "ld", k: argLow(1) },
    { op: "jeq", k: TIOCSTI, yes: "deny" },
    { op: "jeq", k: TIOCLINUX, yes: "deny" },
    { op: "ret", k: ALLOW },
  );
  if (!network) {
    code.push(
      { op: "label", name: "socket" },
      { op: "ld", k: argLow(0) },
      { op: "jeq", k: AF_UNIX, no: "deny" },
      { op: "ld", k: argLow(1) },
      { op: "and", k: SOCK_TYPE_MASK },
      { op: "jeq", k: SOCK_DGRAM, yes: "deny" },
      { op: "ret", k: ALLOW },
      // socketpair(domain, type, protocol, sv): only AF_UNIX is possible; no datagram pairs.
      { op: "label", name: "socketpair" },
      { op: "ld", k: argLow(1) },
      { op: "and", k: SOCK_TYPE_MASK },
      { op: "jeq", k: SOCK_DGRAM, yes: "deny" },
      { op: "ret", k: ALLOW },
      // sendto(fd, buf, len, flags, dest_addr, addrlen): only without a destination (plain send).
      { op: "label", name: "sendto" },
      { op: "ld", k: argLow(4) },
      { op: "jeq", k: 0, no: "deny" },
      { op: "ld", k: argHigh(4) },
      { op: "jeq", k: 0, no: "deny" },
      { op: "ret", k: ALLOW },
    );
  }
  code.push({ op: "label", name: "deny" }, { op: "ret", k: EPERM });
  return assemble(code);
}

function assemble(code: readonly Op[]): Buffer {
  const labels = new Map<string, number>();
  const insns: Array<Exclude<Op, { op: "label" }>> = [];
  for (const op of code) {
    if (op.op === "label") labels.set(op.name, insns.length);
    else insns.push(op);
  }
  const out = Buffer.alloc(insns.length * 8);
  const jump = (from: number, label: string | undefined): number => {
    if (label === undefined) return 0;
    const to = labels.get(label);
    if (to === undefined || to <= from || to - from - 1 > 255) throw new Error(`seccomp: bad jump to ${label}`);
    return to - from - 1;
  };
  insns.forEach((insn, index) => {
    const at = index * 8;
    if (insn.op === "ld" || insn.op === "and" || insn.op === "ret") {
      out.writeUInt16LE(insn.op === "ld" ? LD : insn.op === "and" ? AND : RET, at);
    } else {
      out.writeUInt16LE(insn.op === "jeq" ? JEQ : JGE, at);
      out.writeUInt8(jump(index, insn.yes), at + 2);
      out.writeUInt8(jump(index, insn.no), at + 3);
    }
    out.writeUInt32LE(insn.k >>> 0, at + 4);
  });
  return out;
}

const held = new Map<boolean, string>();

/**
 * A path a child of this process can open to read the program (bubblewrap reads it from a
 * descriptor). The program is written to a file that is unlinked at once and held open for the
 * life of the process, so nothing can change it by name afterwards; children reopen it through
 * `/proc/<this pid>/fd/<n>`, which sandboxed commands cannot reach (their own /proc under
 * bubblewrap; Landlock refuses a confined process access to an unconfined one's descriptors).
 */
export function seccompProgramPath(arch: SeccompArch, network: boolean): string {
  const known = held.get(network);
  if (known !== undefined) return known;
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-seccomp-"));
  const file = join(dir, "filter.bpf");
  const fd = openSync(file, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL, 0o600);
  try {
    const program = seccompProgram(arch, network);
    writeSync(fd, program, 0, program.length, 0);
  } catch (err) {
    closeSync(fd);
    throw err;
  } finally {
    unlinkSync(file);
    rmdirSync(dir);
  }
  const path = `/proc/${process.pid}/fd/${fd}`;
  // A /proc that shows another PID namespace would name someone else's descriptor.
  if (!readlinkSync(path).startsWith(file)) {
    closeSync(fd);
    throw new Error(`/proc/${process.pid} is not this process here; the seccomp filter cannot be handed to bwrap`);
  }
  held.set(network, path);
  return path;
}
