import { test } from "node:test";
import assert from "node:assert/strict";
import { bwrapDenyArgs } from "./bwrap-deny.js";

/** The arguments as one line per mount, for reading. */
function mounts(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; ) {
    const flag = args[i] ?? "";
    if (flag === "--perms") {
      out.push(`${flag} ${args[i + 1]} ${args[i + 2]} ${args[i + 3]}`);
      i += 4;
    } else if (flag === "--remount-ro") {
      out.push(`${flag} ${args[i + 1]}`);
      i += 2;
    } else {
      out.push(`${flag} ${args[i + 1]} ${args[i + 2]}`);
      i += 3;
    }
  }
  return out;
}

const legacy = { root: "ro" as const, writableRoots: ["/w"], protectedPaths: ["/w/.git"] };

void test("nothing to hide adds no mounts", () => {
  assert.deepEqual(bwrapDenyArgs({ hidden: [], readOnly: [], writable: [] }, legacy), []);
});

void test("hidden files and folders are masked after the folders above them are pinned, shallowest first", () => {
  const args = bwrapDenyArgs({ hidden: [{ path: "/w/a/b/.env", dir: false }, { path: "/w/secrets", dir: true }], readOnly: [], writable: [] }, legacy);
  assert.deepEqual(mounts(args), [
    "--bind /w/a /w/a",
    "--perms 0000 --tmpfs /w/secrets",
    "--bind /w/a/b /w/a/b",
    "--ro-bind /dev/null /w/a/b/.env",
    "--remount-ro /w/secrets",
  ]);
});

void test("outside the writable roots nothing can be renamed, so nothing is pinned there", () => {
  const args = bwrapDenyArgs({ hidden: [{ path: "/etc/app/secret.conf", dir: false }], readOnly: [], writable: [] }, legacy);
  assert.deepEqual(mounts(args), ["--ro-bind /dev/null /etc/app/secret.conf"]);
});

void test("a pin over a folder holding a protected path repeats its read-only mount; nothing is reopened inside a hidden folder", () => {
  const view = {
    hidden: [
      { path: "/w/.git/hooks/x.pem", dir: false },
      { path: "/w/vault", dir: true },
      { path: "/w/vault/inner/.env", dir: false },
    ],
    readOnly: [],
    writable: [],
  };
  const args = bwrapDenyArgs(view, { ...legacy, writableRoots: ["/w", "/w/vault/out"] });
  assert.deepEqual(mounts(args), [
    "--perms 0000 --tmpfs /w/vault",
    "--ro-bind /dev/null /w/.git/hooks/x.pem",
    "--remount-ro /w/vault",
  ]);
});

void test("a rule reopens a folder inside a hidden one, and read-only rules hold inside writable roots", () => {
  const view = { hidden: [{ path: "/w/secrets", dir: true }], readOnly: ["/w/docs"], writable: ["/w/secrets/public"] };
  assert.deepEqual(mounts(bwrapDenyArgs(view, legacy)), [
    "--ro-bind /w/docs /w/docs",
    "--perms 0000 --tmpfs /w/secrets",
    "--bind /w/secrets/public /w/secrets/public",
    "--remount-ro /w/secrets",
  ]);
});

void test("under full access every folder above a hidden path is pinned, the root excepted", () => {
  const args = bwrapDenyArgs({ hidden: [{ path: "/home/u/p/.env", dir: false }], readOnly: [], writable: [] }, { root: "rw", writableRoots: [], protectedPaths: [] });
  assert.deepEqual(mounts(args), ["--bind /home /home", "--bind /home/u /home/u", "--bind /home/u/p /home/u/p", "--ro-bind /dev/null /home/u/p/.env"]);
});
