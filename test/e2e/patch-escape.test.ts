/**
 * Patches against a hostile workspace, through the real `codex-ts exec` under each Linux sandbox
 * mechanism: a sandboxed command may create links in the workspace (that is allowed), and no
 * patch the model sends afterwards may follow one out of the writable roots, whether the link's
 * target exists or not, and whatever a command racing the patch does.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { customCall, fnCall, text, turn, type ModelServer } from "../support/model-server.js";
import { exec, makeWorkspace, withServer } from "../support/cli.js";
import { linuxMechanisms, makeOutside, startConfined, stopGroup, waitFor, workspaceWrite } from "../support/sandbox-scene.js";

const WRITE = ["-s", "workspace-write", "--json"];

/** What the model read back for a call, whatever the tool's kind. */
function outputOf(server: ModelServer, callId: string): string {
  for (const request of server.requests) {
    const item = (request.body.input ?? []).find((i) => i.call_id === callId && typeof i.output === "string");
    if (item) return item.output as string;
  }
  return "(no output)";
}
const addNotes = (line: string): string => `*** Begin Patch\n*** Add File: notes.txt\n+${line}\n*** End Patch\n`;
const mechanisms = await linuxMechanisms();
const outside = makeOutside();
after(() => {
  if (outside !== null) rmSync(outside, { recursive: true, force: true });
});

for (const { mechanism, skip } of mechanisms) {
  const env = { CODEX_TS_LINUX_SANDBOX: mechanism };

  void test(`${mechanism}: a link a sandboxed command made to a missing file outside does not carry a patch there`, { skip: skip || (outside === null && "no folder outside the roots") }, async () => {
    const target = join(outside as string, `dangling-${mechanism}.txt`);
    const ws = makeWorkspace();
    await withServer(
      [
        turn(fnCall("exec_command", { cmd: `ln -s '${target}' notes.txt` }, "c_ln")),
        turn(customCall("apply_patch", addNotes("pwned"), "c_patch")),
        turn(text("done")),
      ],
      async (server) => {
        const r = await exec(server, [...WRITE, "link and patch"], { cwd: ws.dir, home: ws.home, env });
        assert.equal(r.code, 0, r.stderr);
        assert.match(outputOf(server, "c_ln"), /exited with code 0/, "creating the link is allowed");
        assert.equal(existsSync(target), false, "the patch must not create the link's target outside the roots");
        assert.equal(outputOf(server, "c_patch"), "patch rejected: writing outside of the project; rejected by user approval settings");
      },
    );
    rmSync(target, { force: true });
  });

  void test(`${mechanism}: a sandboxed command swapping a file and a link to an outside file loses every race against 400 patches`, { skip: skip || (outside === null && "no folder outside the roots") }, async () => {
    const target = join(outside as string, `raced-${mechanism}.txt`);
    writeFileSync(target, "original\n");
    const ws = makeWorkspace();
    // The attacker: a regular file at notes.txt nearly all the time (so the patch's check passes),
    // replaced for an instant by a link to the outside file, as often as it can.
    const swapper = [
      "import os, sys",
      "target = sys.argv[1]",
      "while True:",
      "    try:",
      "        for name in ('.l', '.f'):",
      "            if os.path.lexists(name): os.unlink(name)",
      "        os.symlink(target, '.l')",
      "        with open('.f', 'w') as f: f.write('regular\\n')",
      "        os.replace('.l', 'notes.txt'); os.replace('.f', 'notes.txt')",
      "    except OSError:",
      "        pass",
    ].join("\n");
    const racer = await startConfined(mechanism, workspaceWrite(), ws.dir, ["python3", "-c", swapper, target]);
    try {
      assert.ok(await waitFor(() => existsSync(join(ws.dir, "notes.txt")), 10_000), "the racing command runs");
      const calls = Array.from({ length: 400 }, (_, i) => customCall("apply_patch", addNotes(`PWNED-${i}`), `c_${i}`));
      await withServer([turn(...calls), turn(text("done"))], async (server) => {
        const r = await exec(server, [...WRITE, "race"], { cwd: ws.dir, home: ws.home, env, timeoutMs: 120_000 });
        assert.equal(r.code, 0, r.stderr);
        assert.equal(readFileSync(target, "utf8"), "original\n", "the outside file was written through the link");
        const outputs = calls.map((_, i) => outputOf(server, `c_${i}`));
        const applied = outputs.filter((o) => o.includes("Success. Updated the following files:")).length;
        // Refused when checked (the link was there) or when written (it was swapped in after the check).
        const refusedAtCheck = outputs.filter((o) => o.startsWith("patch rejected: writing outside of the project")).length;
        const refusedAtWrite = outputs.filter((o) => o.includes("Failed to write file")).length;
        console.log(`${mechanism} race: ${applied} applied inside, ${refusedAtCheck} refused when checked, ${refusedAtWrite} refused when written`);
        assert.equal(applied + refusedAtCheck + refusedAtWrite, outputs.length, "every patch either applied inside the workspace or was refused");
        assert.ok(refusedAtCheck + refusedAtWrite > 0, "the race was on: some patches met the link");
      });
    } finally {
      stopGroup(racer);
      rmSync(target, { force: true });
    }
  });
}

void test("a patch through a link to a missing file in a folder the permission profile denies is refused", { skip: process.platform !== "linux" ? "the profile's sandbox here is Linux's" : false }, async () => {
  const config = ['default_permissions = "locked"', "[permissions.locked]", 'extends = ":workspace"', "[permissions.locked.filesystem]", '":project_roots" = { "secrets/**" = "none" }', ""].join("\n");
  const ws = makeWorkspace({ config });
  const dir = realpathSync(ws.dir);
  mkdirSync(join(dir, "secrets"));
  // A link to a file that does not exist yet: only where it leads says it is denied.
  symlinkSync(join(dir, "secrets", "planted.txt"), join(dir, "notes.txt"));
  await withServer([turn(customCall("apply_patch", addNotes("written into the denied folder"), "c_patch")), turn(text("done"))], async (server) => {
    const r = await exec(server, ["--json", "edit notes"], { cwd: dir, home: ws.home });
    assert.equal(r.code, 0, r.stderr);
    assert.match(outputOf(server, "c_patch"), /^apply_patch refused: .*secrets\/planted\.txt is off limits/);
    assert.equal(existsSync(join(dir, "secrets", "planted.txt")), false);
  });
});
