/**
 * Lifecycle hooks in the interactive UI, in a real terminal: a hooks.json written for Codex 0.169
 * waits for review, `/hooks` lists it by event, shows a hook and trusts it (saved as the
 * reference saves it), and the trusted hook's block shows up as a cell while the model reads the
 * reference's wording.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { makeWorkspace } from "../support/cli.js";
import { fnCall, text, turn } from "../support/model-server.js";
import { KEY } from "../support/pty.js";
import { quit, send, withTui } from "../support/tui.js";
import { installFixtureHooks } from "../support/hooks.js";

for (const [cols, rows] of [
  [120, 40],
  [60, 20],
] as const) {
  void test(`/hooks reviews and trusts a hook; its block then shows as a cell (${cols}x${rows})`, async () => {
    const ws = makeWorkspace();
    installFixtureHooks(ws.home);
    const turns = [turn(fnCall("exec_command", { cmd: "rm -rf build", login: false }, "c1")), turn(text("left it alone"))];
    await withTui(turns, { ws, cols, rows }, async ({ ui, server }) => {
      await ui.waitFor(/8 hooks are new or changed/);
      await send(ui, "/hooks");
      const list = await ui.waitFor(/Hooks[\s\S]*PreToolUse/);
      assert.match(list, /8 hooks need review/);
      ui.write(KEY.enter);
      const detail = await ui.waitFor(/PreToolUse hooks[\s\S]*Bash · new/);
      assert.match(detail, /block-rm-rf\.sh/);
      ui.write("t");
      await ui.waitFor(/Bash · trusted/);
      // Saved where Codex 0.169 saves it, with the hash it computes for this definition.
      const config = readFileSync(join(ws.home, "config.toml"), "utf8");
      assert.ok(config.includes(`[hooks.state."${join(ws.home, "hooks.json")}:pre_tool_use:0:0"]`), config);
      assert.match(config, /trusted_hash = "sha256:15cac88e86074fad30ae65f610ce72f37ead029461ddaf314aed2dff96b87c51"/);
      ui.write(KEY.escape);
      await ui.waitFor(/t trust all/);
      ui.write(KEY.escape);
      // A key typed right after Esc would read as Alt+key: wait for the list to close first.
      await ui.until(async () => !(await ui.screen()).join("\n").includes("t trust all"), "/hooks closed");
      await send(ui, "clean up");
      await ui.waitFor("left it alone");
      const transcript = await ui.transcript();
      assert.match(transcript, /Blocked by PreToolUse hook/);
      assert.match(transcript, /rm -rf is not allowed here/);
      const output = server.requests[1]?.body.input?.find((i) => i.type === "function_call_output" && i.call_id === "c1")?.output;
      assert.equal(output, "Command blocked by PreToolUse hook: rm -rf is not allowed here. Command: rm -rf build");
      assert.equal(await quit(ui), 0);
    });
  });
}
