/**
 * The commit writes in place and undoes from memory: files keep their inode, mode and links,
 * and a failure part-way through any phase puts every path back byte for byte (contents, modes,
 * symlinks, deleted files and the sources of moves), with no folder or file left behind.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { commitPlan } from "./commit.js";
import { parsePatch } from "./parser.js";
import { planPatch } from "./plan.js";

const wrap = (body: string): string => `*** Begin Patch\n${body}\n*** End Patch\n`;

function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-commit-"));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}

/** Every entry under dir: its type, permission bits, and content or link target. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      const info = lstatSync(full);
      const mode = (info.mode & 0o7777).toString(8);
      const key = relative(dir, full);
      if (info.isSymbolicLink()) out[key] = `link -> ${readlinkSync(full)}`;
      else if (info.isDirectory()) {
        out[`${key}/`] = `dir ${mode}`;
        walk(full);
      } else out[key] = `file ${mode} ${JSON.stringify(readFileSync(full, "utf8"))}`;
    }
  };
  walk(dir);
  return out;
}

const inode = (path: string): number => statSync(path).ino;

async function plan(dir: string, body: string): Promise<Awaited<ReturnType<typeof planPatch>>> {
  return planPatch(parsePatch(wrap(body)), dir);
}

void test("a commit rewrites files in place: same inode and mode, hard links and symlinks see the change, shrinking files are cut", async () => {
  const dir = workspace({ "run.sh": "echo a long first version\n", "data.txt": "d\n", "real.txt": "r\n" });
  chmodSync(join(dir, "run.sh"), 0o755);
  chmodSync(join(dir, "data.txt"), 0o640);
  linkSync(join(dir, "data.txt"), join(dir, "hard.txt"));
  symlinkSync("real.txt", join(dir, "link.txt"));
  const inodes = ["run.sh", "data.txt", "real.txt"].map((name) => inode(join(dir, name)));
  await commitPlan(
    await plan(
      dir,
      "*** Update File: run.sh\n@@\n-echo a long first version\n+echo b\n" +
        "*** Update File: data.txt\n@@\n-d\n+d grows\n+over two lines\n" +
        "*** Update File: link.txt\n@@\n-r\n+R",
    ),
  );
  assert.deepEqual(snapshot(dir), {
    "data.txt": 'file 640 "d grows\\nover two lines\\n"',
    "hard.txt": 'file 640 "d grows\\nover two lines\\n"',
    "link.txt": "link -> real.txt",
    "real.txt": 'file 644 "R\\n"',
    "run.sh": 'file 755 "echo b\\n"',
  });
  assert.deepEqual(["run.sh", "data.txt", "real.txt"].map((name) => inode(join(dir, name))), inodes, "no file was replaced by a new one");
});

void test("a failure while deleting undoes every write, add, move and delete: modes, links and deleted files come back", async () => {
  const dir = workspace({ "run.sh": "echo a\n", "a.txt": "a\n", "keep.txt": "keep\n", "real.txt": "r\n", "z.txt": "z\n" });
  chmodSync(join(dir, "run.sh"), 0o755);
  chmodSync(join(dir, "keep.txt"), 0o600);
  symlinkSync("real.txt", join(dir, "link.txt"));
  const planned = await plan(
    dir,
    "*** Update File: run.sh\n@@\n-echo a\n+echo b\n" +
      "*** Add File: new/deep/c.txt\n+c\n" +
      "*** Update File: a.txt\n*** Move to: moved/b.txt\n@@\n-a\n+b\n" +
      "*** Delete File: keep.txt\n" +
      "*** Delete File: link.txt\n" +
      "*** Delete File: z.txt",
  );
  // After planning, the last path to delete becomes a folder, so the commit fails at its very end.
  rmSync(join(dir, "z.txt"));
  mkdirSync(join(dir, "z.txt"));
  const before = snapshot(dir);
  const runSh = inode(join(dir, "run.sh"));
  await assert.rejects(commitPlan(planned), { message: `Failed to delete file ${join(dir, "z.txt")}: Is a directory (os error 21)` });
  assert.deepEqual(snapshot(dir), before);
  assert.equal(inode(join(dir, "run.sh")), runSh, "restored in place too");
});

void test("a failure while writing undoes the writes before it, and a file created through a dangling symlink goes again", async () => {
  const dir = workspace({ "a.txt": "a\n", "b.txt": "b\n" });
  symlinkSync("missing-target.txt", join(dir, "dangling.txt"));
  const planned = await plan(
    dir,
    "*** Update File: a.txt\n@@\n-a\n+a, now much longer than before\n" +
      "*** Add File: dangling.txt\n+through the link\n" +
      "*** Delete File: b.txt\n" +
      "*** Add File: blocked.txt\n+x",
  );
  mkdirSync(join(dir, "blocked.txt"));
  const before = snapshot(dir);
  await assert.rejects(commitPlan(planned), { message: `Failed to write file ${join(dir, "blocked.txt")}: Is a directory (os error 21)` });
  assert.deepEqual(snapshot(dir), before);
});

void test("a content in more pieces than one vectored write takes is written whole", async () => {
  const lines = Array.from({ length: 6_000 }, (_, i) => `line ${i}`);
  const dir = workspace({ "big.txt": `${lines.join("\n")}\n` });
  const body: string[] = [];
  const expected = [...lines];
  for (let at = 2; at < lines.length; at += 5) {
    body.push("@@", ` ${lines[at - 1]}`, `-${lines[at]}`, `+changed ${at}`);
    expected[at] = `changed ${at}`;
  }
  const planned = await plan(dir, `*** Update File: big.txt\n${body.join("\n")}`);
  assert.ok((planned.changes[0]?.contents?.new?.parts.length ?? 0) > 2_048, "the exact path kept the pieces apart");
  await commitPlan(planned);
  assert.equal(readFileSync(join(dir, "big.txt"), "utf8"), `${expected.join("\n")}\n`);
});
