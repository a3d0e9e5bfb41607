/**
 * Writing a git object into an object folder without starting git: `<type> <size>\0<body>`,
 * hashed (SHA-1, or SHA-256 in such a repository) and stored deflated at `xx/<rest of the id>`,
 * as git stores loose objects. Ghost commits are made this way: a process start costs more than
 * the commit itself.
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";

/** Stores the object (unless it is there already) and returns its id. */
export function writeLooseObject(objects: string, type: "commit", body: string, oidBytes: number): string {
  const content = Buffer.concat([Buffer.from(`${type} ${Buffer.byteLength(body)}\0`), Buffer.from(body)]);
  const id = createHash(oidBytes === 32 ? "sha256" : "sha1").update(content).digest("hex");
  const folder = join(objects, id.slice(0, 2));
  const file = join(folder, id.slice(2));
  if (existsSync(file)) return id;
  mkdirSync(folder, { recursive: true });
  // Written whole under another name, then renamed: a git reading the folder never sees half of it.
  const partial = join(folder, `tmp_obj_${randomBytes(6).toString("hex")}`);
  try {
    writeFileSync(partial, deflateSync(content), { mode: 0o444 });
    renameSync(partial, file);
  } finally {
    rmSync(partial, { force: true });
  }
  return id;
}

/** A commit's body, as `git commit-tree` writes it: `when` in seconds, the local time zone's offset. */
export function commitBody(tree: string, parent: string | null, identity: string, message: string, when: Date): string {
  const offset = -when.getTimezoneOffset();
  const zone = `${offset < 0 ? "-" : "+"}${String(Math.floor(Math.abs(offset) / 60)).padStart(2, "0")}${String(Math.abs(offset) % 60).padStart(2, "0")}`;
  const stamp = `${identity} ${Math.floor(when.getTime() / 1000)} ${zone}`;
  return `tree ${tree}\n${parent !== null ? `parent ${parent}\n` : ""}author ${stamp}\ncommitter ${stamp}\n\n${message}\n`;
}
