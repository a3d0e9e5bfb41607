/**
 * End-to-end: a permission profile denying `secrets/**` (and the built-in `**\/.env`) through
 * the real `codex-ts exec` and the scripted model server. The model tries every way it has to
 * the secrets: shell commands (direct, symlink, hard link, grep over the project, a renamed
 * folder read by the next command), apply_patch, view_image and an MCP server the session
 * started. No byte of any secret may reach any request, while the rest of the project stays
 * readable and writable; the model is told in its instructions which paths are off limits.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { linkSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { callOutputText, customCall, fnCall, text, turn } from "../support/model-server.js";
import { exec, makeWorkspace, withServer } from "../support/cli.js";
import { FILE_READER_SERVER_PATH } from "../fixtures/mcp/file-reader-server.js";

const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");

const CONFIG = [
  'default_permissions = "locked"',
  "[permissions.locked]",
  'extends = ":workspace"',
  "[permissions.locked.filesystem]",
  '":project_roots" = { "secrets/**" = "none" }',
  "[mcp_servers.reader]",
  `command = ${JSON.stringify(process.execPath)}`,
  `args = [${JSON.stringify(FILE_READER_SERVER_PATH)}]`,
  "",
].join("\n");

void test("nothing the agent runs or reads gets a byte of a denied file into any request", { skip: process.platform !== "linux" ? "the sandbox here is Linux's" : false }, async () => {
  const ws = makeWorkspace({ config: CONFIG });
  const dir = realpathSync(ws.dir);
  const secrets = {
    env: "DENIED-env-7c1e0b",
    key: "DENIED-key-93fa2d",
    deepEnv: "DENIED-deep-env-5b8e41",
  };
  mkdirSync(join(dir, "secrets"));
  mkdirSync(join(dir, "app", "config"), { recursive: true });
  writeFileSync(join(dir, ".env"), `TOKEN=${secrets.env}\n`);
  writeFileSync(join(dir, "secrets", "key.txt"), `${secrets.key}\n`);
  writeFileSync(join(dir, "secrets", "shot.png"), PNG);
  writeFileSync(join(dir, "app", "config", ".env"), `DB=${secrets.deepEnv}\n`);
  writeFileSync(join(dir, "readme.md"), "# Project\n");
  symlinkSync(join(dir, "secrets", "key.txt"), join(dir, "notes.txt"));
  linkSync(join(dir, "app", "config", ".env"), join(dir, "app", "settings.txt"));

  const patch = "*** Begin Patch\n*** Update File: .env\n@@\n-TOKEN=x\n+TOKEN=y\n*** End Patch\n";
  const moveOut = "*** Begin Patch\n*** Update File: secrets/key.txt\n*** Move to: stolen.txt\n@@\n-a\n+b\n*** End Patch\n";
  const cmd = (script: string, id: string): ReturnType<typeof fnCall> => fnCall("exec_command", { cmd: script }, id);
  await withServer(
    [
      turn(
        cmd("cat .env; cat secrets/key.txt; cat notes.txt; cat app/settings.txt; cat app/config/.env", "c_cat"),
        cmd("grep -r DENIED . ; cat /proc/self/root$PWD/.env", "c_grep"),
      ),
      turn(cmd("mv secrets public; mv app/config/.env app/config/env.txt; ls", "c_rename")),
      turn(cmd("cat public/key.txt app/config/env.txt secrets/key.txt", "c_after")),
      turn(customCall("apply_patch", patch, "c_patch"), customCall("apply_patch", moveOut, "c_move")),
      turn(fnCall("view_image", { path: "secrets/shot.png" }, "c_image")),
      turn(fnCall("mcp__reader__read", { path: join(dir, ".env") }, "c_mcp"), fnCall("mcp__reader__read", { path: join(dir, "secrets", "key.txt") }, "c_mcp2")),
      turn(cmd("cat readme.md && echo fine > app/new.txt && cat app/new.txt", "c_ok"), fnCall("mcp__reader__read", { path: join(dir, "readme.md") }, "c_mcp_ok")),
      turn(text("I could not read the secrets.")),
    ],
    async (server) => {
      const r = await exec(server, ["--json", "find the API token"], { cwd: dir, home: ws.home, timeoutMs: 60_000 });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(server.requests.length, 8);

      const markers = [...Object.values(secrets), PNG.toString("base64")];
      for (const [i, request] of server.requests.entries()) {
        for (const marker of markers) assert.equal(request.rawBody.includes(marker), false, `request ${i} carries ${marker}`);
      }

      // The model was told, with the paths as they are on this machine.
      const instructions = server.requests[0]?.rawBody ?? "";
      assert.ok(instructions.includes("## Paths off limits"), "the permissions section lists denied paths");
      assert.ok(instructions.includes(`- glob \`${join(dir, "secrets", "**")}\``), instructions.slice(0, 200));
      assert.ok(instructions.includes(`- glob \`${join(dir, "**", ".env")}\``));

      assert.match(callOutputText(server, "c_cat"), /Permission denied|No such file/);
      assert.match(callOutputText(server, "c_rename"), /Device or resource busy|Permission denied/);
      assert.match(callOutputText(server, "c_patch"), /^apply_patch refused: .*\.env is off limits: it matches the denied pattern/);
      assert.match(callOutputText(server, "c_move"), /^apply_patch refused: .*secrets\/key\.txt is off limits/);
      assert.match(callOutputText(server, "c_image"), /secrets\/shot\.png is off limits/);
      assert.match(callOutputText(server, "c_mcp"), /EACCES|permission denied/i);
      // The rest of the project: readable and writable, by commands and by the MCP server.
      assert.match(callOutputText(server, "c_ok"), /# Project\nfine/);
      assert.match(callOutputText(server, "c_mcp_ok"), /# Project/);

      // Nothing was changed, moved or leaked into a new file.
      assert.equal(readFileSync(join(dir, ".env"), "utf8"), `TOKEN=${secrets.env}\n`);
      assert.equal(readFileSync(join(dir, "secrets", "key.txt"), "utf8"), `${secrets.key}\n`);
      assert.equal(readFileSync(join(dir, "app", "config", ".env"), "utf8"), `DB=${secrets.deepEnv}\n`);
    },
  );
});
