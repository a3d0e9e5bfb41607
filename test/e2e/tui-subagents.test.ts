/**
 * Sub-agents in the interactive UI, driven in a pseudo-terminal as a user drives it: the
 * activity cells and the live line name the sub-agent, its approval question comes up titled with
 * its name and is answered there, and `/agent` shows its conversation and goes back; once the
 * sub-agent is closed, `/agent` still shows its conversation as recorded, and refuses input; after
 * a resume, the sub-agent's conversation is read back from its own file. `/undo` takes back what a
 * sub-agent changed with the parent's turn.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { makeWorkspace, baseUrlArgs } from "../support/cli.js";
import { collabCall, outputsIn, spawnedIn, startAgentServer, type AgentScript } from "../support/agent-script.js";
import { customCall, fnCall, text, turn } from "../support/model-server.js";
import { KEY, PtySession } from "../support/pty.js";
import { READY, quit, send } from "../support/tui.js";

const SCRIPT: AgentScript = {
  parent: [
    turn(collabCall("spawn_agent", { message: "fetch the dependency list" }, "s")),
    (r) => turn(collabCall("wait_agent", { targets: spawnedIn(r), timeout_ms: 60_000 }, "w")),
    turn(text("The helper fetched it.")),
    (r) => turn(collabCall("close_agent", { target: spawnedIn(r)[0] }, "c")),
    turn(text("Closed the helper.")),
  ],
  child: (_task, request) =>
    outputsIn(request).size === 0
      ? turn(fnCall("exec_command", { cmd: "echo fetched-by-child", sandbox_permissions: "require_escalated", justification: "needs the network" }, "c1"))
      : turn(text("Fetched: fetched-by-child")),
};

for (const [cols, rows] of [
  [120, 40],
  [60, 20],
] as const) {
  void test(`a sub-agent at work, its question and its conversation, at ${cols}x${rows}`, async () => {
    const server = await startAgentServer(SCRIPT);
    const ws = makeWorkspace();
    const ui = new PtySession([...baseUrlArgs(server.url), "-s", "workspace-write", "-a", "on-request"], { cwd: ws.dir, home: ws.home, cols, rows });
    try {
      await ui.waitFor(READY);
      await send(ui, "delegate the fetch");
      // The question is the sub-agent's, named as such; answering it here lets the sub-agent go on.
      await ui.waitFor(/asks: Run this command\?/);
      const asked = (await ui.screen()).join("\n");
      const nickname = /• Started (\S+)/.exec(await ui.transcript())?.[1] ?? "";
      assert.ok(nickname !== "", asked);
      assert.match(asked, new RegExp(`${nickname} asks: Run this command\\?`));
      ui.write("y");
      await ui.waitFor("The helper fetched it.", { inTranscript: true });
      const transcript = await ui.transcript();
      assert.match(transcript, new RegExp(`${nickname} is done`));
      assert.match(transcript, /Fetched: fetched-by-child/);
      assert.match(transcript, new RegExp(`Waited for sub-agents: ${nickname} is done`));

      // /agent: the sub-agent's own conversation, its command included; then back.
      await ui.type("/agent");
      ui.write(KEY.enter);
      await ui.waitFor("main thread");
      ui.write(KEY.down);
      ui.write(KEY.enter);
      await ui.waitFor(new RegExp(`Watching ${nickname}`), { inTranscript: true });
      await ui.waitFor(/echo fetched-by-child/, { inTranscript: true });
      await ui.type("/agent");
      ui.write(KEY.enter);
      await ui.waitFor("main thread");
      ui.write(KEY.enter);
      await ui.waitFor("Back to your conversation", { inTranscript: true });

      // Closed: its conversation is still there to read, but nothing typed goes to it.
      await send(ui, "close the helper");
      await ui.waitFor("Closed the helper.", { inTranscript: true });
      await ui.type("/agent");
      ui.write(KEY.enter);
      await ui.waitFor("is closed");
      ui.write(KEY.down);
      ui.write(KEY.enter);
      // Its header, the note, then its conversation drawn again (its command included).
      await ui.waitFor(new RegExp(`${nickname}.*a closed sub-agent, as recorded[\\s\\S]*echo fetched-by-child`), { inTranscript: true });
      await send(ui, "are you there?");
      await ui.waitFor("This sub-agent is not open", { inTranscript: true });
      await ui.type("/agent");
      ui.write(KEY.enter);
      await ui.waitFor("main thread");
      ui.write(KEY.enter);
      await ui.waitFor(/Back to your conversation[\s\S]*Back to your conversation/, { inTranscript: true });
      assert.equal(server.requests.filter((r) => JSON.stringify(r.body).includes("are you there?")).length, 0, "nothing went to the model");
      assert.equal(await quit(ui), 0);

      // Resumed: the sub-agent is known again, and its conversation is read from its own file.
      const resumed = new PtySession([...baseUrlArgs(server.url), "-s", "workspace-write", "-a", "on-request", "resume", "--last"], { cwd: ws.dir, home: ws.home, cols, rows });
      try {
        await resumed.waitFor(READY);
        await resumed.waitFor("Closed the helper.", { inTranscript: true });
        await resumed.type("/agent");
        resumed.write(KEY.enter);
        await resumed.waitFor("is closed");
        resumed.write(KEY.down);
        resumed.write(KEY.enter);
        await resumed.waitFor(new RegExp(`${nickname}.*a closed sub-agent, as recorded[\\s\\S]*echo fetched-by-child[\\s\\S]*Fetched: fetched-by-child`), { inTranscript: true });
        assert.equal(await quit(resumed), 0);
      } finally {
        resumed.kill();
      }
      assert.deepEqual(server.violations, []);
    } finally {
      ui.kill();
      await server.close();
    }
  });
}

void test("/undo takes back what a sub-agent changed during the parent's turn, with the turn", async () => {
  const ws = makeWorkspace();
  const patch = "*** Begin Patch\n*** Add File: by-child.txt\n+written by the sub-agent\n*** End Patch\n";
  const server = await startAgentServer({
    parent: [turn(collabCall("spawn_agent", { message: "write the file" }, "s")), (r) => turn(collabCall("wait_agent", { targets: spawnedIn(r), timeout_ms: 60_000 }, "w")), turn(text("The helper wrote it."))],
    child: (_task, request) => (request.body.input?.some((i) => i.type === "custom_tool_call_output") ? turn(text("Written.")) : turn(customCall("apply_patch", patch, "p1"))),
  });
  const ui = new PtySession([...baseUrlArgs(server.url), "-s", "workspace-write", "-a", "never"], { cwd: ws.dir, home: ws.home, cols: 120, rows: 40 });
  try {
    await ui.waitFor(READY);
    await send(ui, "delegate the file");
    await ui.waitFor("The helper wrote it.", { inTranscript: true, timeoutMs: 20_000 });
    await ui.waitFor(READY);
    assert.equal(readFileSync(join(ws.dir, "by-child.txt"), "utf8"), "written by the sub-agent\n");
    await send(ui, "/undo");
    await ui.waitFor(/Undo[\s\S]*Restored 1 file[\s\S]*by-child\.txt/, { inTranscript: true, timeoutMs: 15_000 });
    assert.equal(existsSync(join(ws.dir, "by-child.txt")), false);
    assert.equal(await quit(ui), 0);
    assert.deepEqual(server.violations, []);
  } finally {
    ui.kill();
    await server.close();
  }
});
