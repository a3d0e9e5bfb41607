/**
 * Lifecycle hooks in the interactive UI on an app-server's thread (`codex-ts --remote`), in a
 * real terminal: the server's hooks wait for review and say so, `/hooks` lists them from the
 * server (`hooks/list`) and trusts one there (saved in the server's config.toml with
 * `config/batchWrite`), and its block comes back as a cell from `hook/completed`.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startWsAppServer } from "../support/app-server-client.js";
import { makeWorkspace } from "../support/cli.js";
import { installFixtureHooks } from "../support/hooks.js";
import { fnCall, startModelServer, text, turn } from "../support/model-server.js";
import { KEY, remoteUi } from "../support/pty.js";

void test("the remote UI reviews and trusts the server's hooks, and shows a block from the server", async () => {
  const ws = makeWorkspace();
  installFixtureHooks(ws.home);
  const model = await startModelServer([turn(fnCall("exec_command", { cmd: "rm -rf build", login: false }, "c1")), turn(text("left it alone"))]);
  writeFileSync(join(ws.home, "config.toml"), `openai_base_url = "${model.url}"\n`);
  const server = await startWsAppServer(ws.dir, ws.home);
  // The UI's own home has no hooks: everything it lists is the server's.
  const ui = remoteUi(server.port, ws.dir);
  try {
    await ui.waitFor(/8 hooks are new or changed/);
    await ui.type("/hooks");
    ui.write(KEY.enter);
    assert.match(await ui.waitFor(/Hooks[\s\S]*PreToolUse/), /8 hooks need review/);
    ui.write(KEY.enter);
    assert.match(await ui.waitFor(/PreToolUse hooks[\s\S]*Bash · new/), /block-rm-rf\.sh/);
    ui.write("t");
    await ui.waitFor(/Bash · trusted/);
    // The hash the server computed, saved in the server's config.toml.
    const config = readFileSync(join(ws.home, "config.toml"), "utf8");
    assert.ok(config.includes(`"${join(ws.home, "hooks.json")}:pre_tool_use:0:0"`), config);
    assert.match(config, /trusted_hash = "sha256:15cac88e86074fad30ae65f610ce72f37ead029461ddaf314aed2dff96b87c51"/);
    ui.write(KEY.escape);
    await ui.waitFor(/t trust all/);
    ui.write(KEY.escape);
    await ui.until(async () => !(await ui.screen()).join("\n").includes("t trust all"), "/hooks closed");
    await ui.type("clean up");
    ui.write(KEY.enter);
    await ui.waitFor("left it alone");
    const transcript = await ui.transcript();
    assert.match(transcript, /Blocked by PreToolUse hook/);
    assert.match(transcript, /rm -rf is not allowed here/);
    const output = model.requests[1]?.body.input?.find((i) => i.type === "function_call_output" && i.call_id === "c1")?.output;
    assert.equal(output, "Command blocked by PreToolUse hook: rm -rf is not allowed here. Command: rm -rf build");
    ui.write(KEY.ctrlD);
    assert.equal(await ui.exit(), 0);
  } finally {
    ui.kill();
    server.child.kill("SIGTERM");
    await model.close();
  }
});
