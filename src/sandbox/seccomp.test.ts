import { test } from "node:test";
import assert from "node:assert/strict";
import { seccompArch, seccompProgram } from "./seccomp.js";

/** The program's instructions as [code, jt, jf, k]. */
function decode(program: Buffer): Array<[number, number, number, number]> {
  const out: Array<[number, number, number, number]> = [];
  for (let at = 0; at < program.length; at += 8) out.push([program.readUInt16LE(at), program.readUInt8(at + 2), program.readUInt8(at + 3), program.readUInt32LE(at + 4)]);
  return out;
}

void test("each program checks the architecture first, ends in a return, and jumps only forward inside itself", () => {
  for (const arch of ["x86_64", "aarch64"] as const) {
    for (const network of [true, false]) {
      const insns = decode(seccompProgram(arch, network));
      assert.deepEqual(insns[0], [0x20, 0, 0, 4], "load seccomp_data.arch");
      assert.equal(insns[1]?.[3], arch === "x86_64" ? 0xc000003e : 0xc00000b7);
      assert.equal(insns[insns.length - 1]?.[0], 0x06);
      insns.forEach(([code, jt, jf], index) => {
        if (code === 0x15 || code === 0x35) assert.ok(index + 1 + Math.max(jt, jf) < insns.length, `jump at ${index} stays inside`);
      });
    }
  }
});

void test("with the network off the program refuses connect and sendto with an address; with it on it does not look at them", () => {
  const connect = 42;
  const sendto = 44;
  const compared = (network: boolean): number[] => decode(seccompProgram("x86_64", network)).filter(([code]) => code === 0x15).map(([, , , k]) => k);
  assert.ok(compared(false).includes(connect) && compared(false).includes(sendto));
  assert.ok(!compared(true).includes(connect) && !compared(true).includes(sendto));
});

void test("with the network off Unix datagram sockets are refused by type, whatever flags ride on it; stream pairs are not", () => {
  const socketpair = 53;
  const insns = (network: boolean): Array<[number, number, number, number]> => decode(seccompProgram("x86_64", network));
  const off = insns(false);
  assert.ok(off.some(([code, , , k]) => code === 0x15 && k === socketpair), "socketpair is looked at");
  // The type is masked to its low bits (SOCK_NONBLOCK, SOCK_CLOEXEC above them), then compared with SOCK_DGRAM.
  const masks = off.flatMap(([code, , , k], i) => (code === 0x54 ? [[k, off[i + 1]] as const] : []));
  assert.equal(masks.length, 2, "socket and socketpair");
  for (const [mask, next] of masks) {
    assert.equal(mask, 0xf);
    assert.deepEqual([next?.[0], next?.[3]], [0x15, 2]);
  }
  assert.ok(!insns(true).some(([code, , , k]) => code === 0x54 || (code === 0x15 && k === socketpair)));
});

void test("the machine's architecture is known on the platforms the helper supports", () => {
  assert.equal(seccompArch("x64"), "x86_64");
  assert.equal(seccompArch("arm64"), "aarch64");
  assert.equal(seccompArch("ia32"), null);
});
