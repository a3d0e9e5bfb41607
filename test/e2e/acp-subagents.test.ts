/**
 * `codex-ts acp` with sub-agents: the editor sees each collab call (spawn, wait, close) as a tool
 * call, titled with the agent's nickname, and the wait shows the sub-agent's answer; a
 * sub-agent's approval question is the editor's permission request; every
 * message is checked against the ACP schema (test/support/acp-client.ts).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { callUpdates, checked, configFor, openSession, updatesOf } from "../support/acp-client.js";
import { makeWorkspace } from "../support/cli.js";
import { SPAWN_WAIT_CLOSE, collabCall, outputsIn, spawnedIn, startAgentServer } from "../support/agent-script.js";
import { fnCall, text, turn } from "../support/model-server.js";

void test("acp: a sub-agent's spawn, wait and close are tool calls; the wait shows its answer", async () => {
  const server = await startAgentServer(SPAWN_WAIT_CLOSE);
  const ws = makeWorkspace();
  // gpt-5.4 is offered the collab tools up front.
  writeFileSync(join(ws.home, "config.toml"), configFor(server, 'model = "gpt-5.4"\n'));
  const { acp, sessionId } = await openSession(ws);
  await checked(acp, server, async () => {
    const result = await acp.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "delegate" }] });
    assert.equal(result.stopReason, "end_turn");
    const updates = updatesOf(acp);
    const spawn = callUpdates(updates, "call_0002");
    assert.deepEqual(spawn.map((u) => u.status), ["in_progress", "completed"]);
    assert.equal(spawn[0]?.title, "Starting a sub-agent");
    assert.equal(spawn[0]?.kind, "other");
    const nickname = /^Started (\S+)$/.exec(String(spawn[1]?.title))?.[1] ?? "";
    assert.ok(nickname !== "", String(spawn[1]?.title));
    assert.deepEqual(spawn[1]?.content, [{ type: "content", content: { type: "text", text: "list the test files" } }]);
    const wait = callUpdates(updates, "call_0005");
    assert.deepEqual(wait.map((u) => u.status), ["in_progress", "completed"]);
    assert.equal(wait[1]?.title, `Waited for sub-agents: ${nickname} is done`);
    assert.deepEqual(wait[1]?.content, [{ type: "content", content: { type: "text", text: `${nickname}: tests/a.test.ts and tests/b.test.ts` } }]);
    const close = callUpdates(updates, "call_0010");
    assert.deepEqual(close.map((u) => [u.status, u.title]), [["in_progress", "Closing a sub-agent"], ["completed", `Closed ${nickname}`]]);
  });
  await server.close();
});

void test("acp: a sub-agent's approval question comes to the editor as a permission request, and the answer lets it go on", async () => {
  const ws = makeWorkspace();
  const made = join(ws.dir, "made-by-child.txt");
  const server = await startAgentServer({
    parent: [turn(collabCall("spawn_agent", { message: "make the file" }, "s")), (r) => turn(collabCall("wait_agent", { targets: spawnedIn(r) }, "w")), turn(text("Made."))],
    child: (_task, request) =>
      outputsIn(request).size > 0 ? turn(text("made it")) : turn(fnCall("exec_command", { cmd: `touch ${made}`, sandbox_permissions: "require_escalated", justification: "Create the file?" }, "child_call")),
  });
  writeFileSync(join(ws.home, "config.toml"), configFor(server, 'model = "gpt-5.4"\napproval_policy = "on-request"\nsandbox_mode = "workspace-write"\n'));
  const { acp, sessionId } = await openSession(ws);
  await checked(acp, server, async () => {
    const result = await acp.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "delegate" }] });
    assert.equal(result.stopReason, "end_turn");
    assert.equal(acp.permissions.length, 1);
    assert.equal(acp.permissions[0]?.toolCall.toolCallId, "child_call");
    assert.equal(existsSync(made), true, "allowed once, the sub-agent's command ran");
  });
  await server.close();
});
