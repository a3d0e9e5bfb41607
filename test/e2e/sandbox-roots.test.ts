/**
 * A writable root's name is not a promise about where it leads. A sandboxed command may rename
 * things inside a writable root (/tmp here), including the folder a workspace lives in (the
 * workspace itself is a mount point under bubblewrap, its parent is not), and put a link to a
 * folder outside every root where the workspace was; the next command, started in the
 * workspace's name, must not be handed write access to where that link points. Both Linux
 * mechanisms, one command after the other as a session runs them.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCommandEnv } from "../../src/exec/env.js";
import { sandboxCommand } from "../../src/sandbox/launcher.js";
import { linuxMechanisms, makeOutside, workspaceWrite } from "../support/sandbox-scene.js";

const outside = makeOutside();
after(() => {
  if (outside !== null) rmSync(outside, { recursive: true, force: true });
});
const slashTmpIsRoot = realpathSync(tmpdir()).startsWith("/tmp");

for (const { mechanism, skip } of await linuxMechanisms()) {
  void test(`${mechanism}: a workspace renamed away and replaced by a link does not carry the next command's writes outside`, { skip: skip || (outside === null ? "no folder outside the roots" : !slashTmpIsRoot ? "the temporary folder is not under /tmp" : false) }, async () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), "codex-ts-roots-")));
    const ws = join(base, "proj");
    mkdirSync(ws);
    const run = async (script: string): Promise<{ status: number | null; stderr: string }> => {
      const command = await sandboxCommand({ policy: workspaceWrite(), cwd: ws, argv: ["sh", "-c", script], env: createCommandEnv({}, process.env), linuxSandbox: mechanism });
      const [file = "", ...args] = command.argv;
      const r = spawnSync(file, args, { cwd: ws, env: command.env, encoding: "utf8", timeout: 20_000 });
      return { status: r.status, stderr: r.stderr };
    };
    try {
      const swap = await run(`mv '${base}' '${base}-away' && mkdir '${base}' && ln -s '${outside}' '${ws}'`);
      assert.equal(swap.status, 0, `renaming inside /tmp is allowed: ${swap.stderr}`);
      const target = join(outside as string, `planted-${mechanism}.txt`);
      await run(`echo pwned > planted-${mechanism}.txt`);
      assert.equal(existsSync(target), false, "the next command wrote where the planted link points");
    } finally {
      rmSync(`${base}-away`, { recursive: true, force: true });
      rmSync(base, { recursive: true, force: true });
    }
  });
}
