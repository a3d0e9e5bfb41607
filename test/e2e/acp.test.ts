/**
 * `codex-ts acp` end to end: the ACP SDK's client drives the real CLI over stdio against the
 * scripted model server, and every message the agent sends is checked against the ACP JSON Schema
 * the SDK ships (test/support/acp-client.ts). A prompt runs with a permission request, a slow turn
 * is cancelled (with a permission request still open), and the session is loaded in a new
 * process with its conversation replayed before the load answers.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SessionNotification, SessionUpdate } from "@agentclientprotocol/sdk";
import { agentText, startAcpClient, type AcpClientOptions, type AcpTestClient } from "../support/acp-client.js";
import { makeWorkspace, type Workspace } from "../support/cli.js";
import { fnCall, inputTexts, reasoning, startModelServer, text, turn, type ModelServer } from "../support/model-server.js";

function configFor(server: ModelServer, extra = ""): string {
  return `openai_base_url = "${server.url}"\n${extra}`;
}

/** Starts the agent, initializes it and opens a session in the workspace. */
async function openSession(ws: Workspace, options: Partial<AcpClientOptions> = {}): Promise<{ acp: AcpTestClient; sessionId: string }> {
  const acp = startAcpClient({ cwd: ws.dir, home: ws.home, ...options });
  await acp.connection.agent.request("initialize", { protocolVersion: 1, clientCapabilities: options.capabilities ?? {} });
  const session = await acp.connection.agent.request("session/new", { cwd: ws.dir, mcpServers: [] });
  return { acp, sessionId: session.sessionId };
}

function updatesOf(acp: AcpTestClient, from = 0): SessionUpdate[] {
  return acp.updates.slice(from).map((n: SessionNotification) => n.update);
}

type CallUpdate = Extract<SessionUpdate, { sessionUpdate: "tool_call" | "tool_call_update" }>;

/** The tool_call and tool_call_update notifications about one call, in order. */
function callUpdates(updates: readonly SessionUpdate[], id: string): CallUpdate[] {
  return updates.filter((u): u is CallUpdate => (u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update") && u.toolCallId === id);
}

/** Runs `body`, then checks the agent kept to the schema and the model server saw well-formed requests. */
async function checked(acp: AcpTestClient, server: ModelServer, body: () => Promise<void>): Promise<void> {
  try {
    await body();
    assert.deepEqual(acp.violations, [], "every agent message fits the ACP schema");
    assert.deepEqual(server.violations, []);
  } catch (err) {
    throw new Error(`${(err as Error).message}\nagent stderr:\n${acp.stderr()}`, { cause: err });
  } finally {
    await acp.close();
  }
}

void test("acp: initialize, a prompt whose command waits for a permission, and the session loaded in a new process with its history replayed", async () => {
  const server = await startModelServer([
    turn(reasoning("Plan: write the file"), fnCall("exec_command", { cmd: "echo made > made.txt", yield_time_ms: 5000 }, "c1")),
    turn(text("made the file")),
    turn(text("the second answer")),
  ]);
  const ws = makeWorkspace({ config: "" });
  writeFileSync(join(ws.home, "config.toml"), configFor(server, 'approval_policy = "untrusted"\nsandbox_mode = "workspace-write"\n'));
  let sessionId = "";
  const first = startAcpClient({ cwd: ws.dir, home: ws.home });
  await checked(first, server, async () => {
    const init = await first.connection.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    assert.equal(init.protocolVersion, 1);
    assert.deepEqual(init.agentCapabilities?.promptCapabilities, { image: true, audio: false, embeddedContext: true });
    assert.equal(init.agentCapabilities?.loadSession, true);
    assert.deepEqual(init.authMethods?.map((m) => m.id), ["chatgpt", "api-key"]);

    const created = await first.connection.agent.request("session/new", { cwd: ws.dir, mcpServers: [] });
    sessionId = created.sessionId;
    assert.deepEqual(created.modes?.availableModes.map((m) => m.id), ["read-only", "auto", "full-access", "plan"]);
    assert.equal(created.modes?.currentModeId, "auto", "workspace-write with untrusted approvals is the auto preset's sandbox");
    assert.deepEqual(created.configOptions?.map((o) => o.id), ["mode", "model", "reasoning_effort"]);

    const result = await first.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "make a file" }] });
    assert.equal(result.stopReason, "end_turn");
    assert.equal(readFileSync(join(ws.dir, "made.txt"), "utf8"), "made\n", "the allowed command ran");

    assert.equal(first.permissions.length, 1);
    const asked = first.permissions[0];
    assert.equal(asked?.toolCall.toolCallId, "c1");
    assert.deepEqual(asked?.options.map((o) => o.kind), ["allow_once", "allow_always", "reject_once", "reject_always"]);
    const updates = updatesOf(first);
    const kinds = updates.map((u) => u.sessionUpdate);
    assert.ok(kinds.includes("agent_thought_chunk"), kinds.join(","));
    const calls = callUpdates(updates, "c1");
    assert.deepEqual(calls.map((u) => [u.sessionUpdate, u.status]), [["tool_call", "pending"], ["tool_call_update", "in_progress"], ["tool_call_update", "completed"]]);
    assert.deepEqual([calls[0]?.kind, calls[0]?.title], ["execute", "Run echo made > made.txt"]);
    assert.equal(agentText(first.updates), "made the file");
    assert.ok(kinds.includes("available_commands_update"));
  });
  assert.equal(existsSync(join(ws.dir, "made.txt")), true);

  // A new process: the recorded thread comes back by its id, its conversation replayed first.
  const second = startAcpClient({ cwd: ws.dir, home: ws.home });
  await checked(second, server, async () => {
    await second.connection.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    const loaded = await second.connection.agent.request("session/load", { sessionId, cwd: ws.dir, mcpServers: [] });
    assert.equal(loaded.modes?.currentModeId, "auto");
    const replay = updatesOf(second);
    const replayed = replay.map((u) => u.sessionUpdate);
    assert.deepEqual(replayed.slice(0, 4), ["user_message_chunk", "agent_thought_chunk", "tool_call", "agent_message_chunk"], replayed.join(","));
    const user = replay[0];
    assert.equal(user?.sessionUpdate === "user_message_chunk" && user.content.type === "text" ? user.content.text : null, "make a file");
    const call = replay[2];
    assert.deepEqual(call?.sessionUpdate === "tool_call" ? { id: call.toolCallId, status: call.status, title: call.title } : null, { id: "c1", status: "completed", title: "Run echo made > made.txt" });
    assert.equal(agentText(second.updates), "made the file");

    const before = second.updates.length;
    const again = await second.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "and now?" }] });
    assert.equal(again.stopReason, "end_turn");
    assert.equal(agentText(second.updates, before), "the second answer");
    const input = inputTexts(server.requests[2]?.body.input);
    for (const seen of ["make a file", "made the file", "and now?"]) assert.ok(input.some((t) => t.includes(seen)), `the loaded session's request carries ${seen}`);
  });
  await server.close();
});

void test("acp: session/cancel stops a slow turn and withdraws the permission request still open in the editor", async () => {
  const server = await startModelServer([
    turn(fnCall("exec_command", { cmd: "echo never > never.txt", yield_time_ms: 5000 }, "c1")),
    { ...turn(text("still thinking about it")), hangAfterEvents: 2 },
    turn(text("back")),
  ]);
  const ws = makeWorkspace();
  writeFileSync(join(ws.home, "config.toml"), configFor(server, 'approval_policy = "untrusted"\nsandbox_mode = "workspace-write"\n'));
  let asked: () => void = () => undefined;
  const permissionAsked = new Promise<void>((resolve) => (asked = resolve));
  let withdrawn = false;
  const { acp, sessionId } = await openSession(ws, {
    // The user never answers; the agent has to withdraw the question when the turn is cancelled.
    permission: () => {
      asked();
      return new Promise(() => undefined);
    },
  });
  await checked(acp, server, async () => {
    const prompt = acp.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "make a file" }] });
    await permissionAsked;
    await acp.connection.agent.notify("session/cancel", { sessionId });
    assert.equal((await prompt).stopReason, "cancelled");
    withdrawn = acp.received.some((m) => m.method === "$/cancel_request");
    assert.ok(withdrawn, "the open permission request was cancelled");
    assert.equal(existsSync(join(ws.dir, "never.txt")), false, "the command never ran");
    assert.equal(callUpdates(updatesOf(acp), "c1").at(-1)?.status, "failed", "the withdrawn call is shown as failed");

    // A turn that hangs in the model stream is cancelled the same way.
    const slow = acp.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "take your time" }] });
    await server.waitForRequests(2);
    await acp.connection.agent.notify("session/cancel", { sessionId });
    assert.equal((await slow).stopReason, "cancelled");

    const next = await acp.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "again" }] });
    assert.equal(next.stopReason, "end_turn", "the session goes on after a cancel");
  });
  await server.close();
});
