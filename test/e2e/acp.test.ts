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
import { agentText, callUpdates, checked, configFor, openSession, startAcpClient, updatesOf } from "../support/acp-client.js";
import { makeWorkspace } from "../support/cli.js";
import { callOutputText, customCall, fnCall, inputTexts, reasoning, startModelServer, text, turn } from "../support/model-server.js";

void test("acp: initialize, a prompt whose command waits for a permission, and the session loaded in a new process with its history replayed", async () => {
  const server = await startModelServer([
    turn(reasoning("Plan: write the file"), fnCall("exec_command", { cmd: "echo made | tee made.txt", yield_time_ms: 5000 }, "c1")),
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
    assert.deepEqual([calls[0]?.kind, calls[0]?.title], ["execute", "Run echo made | tee made.txt"]);
    assert.deepEqual(calls[2]?.content, [{ type: "content", content: { type: "text", text: "```\nmade\n```" } }], "the output, once the command ended");
    assert.equal(agentText(first.updates), "made the file");
    assert.ok(kinds.includes("available_commands_update"));
    const titles = updates.flatMap((u) => (u.sessionUpdate === "session_info_update" ? [u.title] : []));
    assert.deepEqual(titles, ["make a file"], "the new session is titled by its first prompt, as session/list titles it");
  });
  assert.equal(existsSync(join(ws.dir, "made.txt")), true);

  // A new process: the recorded thread comes back by its id, its conversation replayed first.
  const second = startAcpClient({ cwd: ws.dir, home: ws.home });
  await checked(second, server, async () => {
    const init = await second.connection.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    assert.deepEqual(init.agentCapabilities?.sessionCapabilities, { list: {}, close: {} });
    const listed = await second.connection.agent.request("session/list", { cwd: ws.dir });
    assert.deepEqual(listed.sessions.map((s) => [s.sessionId, s.cwd, s.title]), [[sessionId, ws.dir, "make a file"]]);
    await assert.rejects(second.connection.agent.request("session/load", { sessionId: "01a217f8-0000-7000-8000-000000000000", cwd: ws.dir, mcpServers: [] }), (err: Error & { code?: number }) => {
      assert.equal(err.code, -32002);
      return true;
    });
    const loaded = await second.connection.agent.request("session/load", { sessionId, cwd: ws.dir, mcpServers: [] });
    assert.equal(loaded.modes?.currentModeId, "auto");
    const replay = updatesOf(second);
    const replayed = replay.map((u) => u.sessionUpdate);
    assert.deepEqual(replayed.slice(0, 4), ["user_message_chunk", "agent_thought_chunk", "tool_call", "agent_message_chunk"], replayed.join(","));
    const user = replay[0];
    assert.equal(user?.sessionUpdate === "user_message_chunk" && user.content.type === "text" ? user.content.text : null, "make a file");
    const call = replay[2];
    assert.deepEqual(call?.sessionUpdate === "tool_call" ? { id: call.toolCallId, status: call.status, title: call.title } : null, { id: "c1", status: "completed", title: "Run echo made | tee made.txt" });
    assert.equal(agentText(second.updates), "made the file");

    const before = second.updates.length;
    const again = await second.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "and now?" }] });
    assert.equal(again.stopReason, "end_turn");
    assert.equal(agentText(second.updates, before), "the second answer");
    assert.equal(updatesOf(second).some((u) => u.sessionUpdate === "session_info_update"), false, "a loaded session keeps its title");
    const input = inputTexts(server.requests[2]?.body.input);
    for (const seen of ["make a file", "made the file", "and now?"]) assert.ok(input.some((t) => t.includes(seen)), `the loaded session's request carries ${seen}`);

    await second.connection.agent.request("session/close", { sessionId });
    await assert.rejects(second.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "still there?" }] }), /not found/i);
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

void test("acp: with the editor's fs, patches read its unsaved buffers and write through it, all or nothing; new files go to disk", async () => {
  const edit = (path: string, from: string, to: string): string => `*** Update File: ${path}\n@@\n-${from}\n+${to}\n`;
  const patch = (...hunks: string[]): string => `*** Begin Patch\n${hunks.join("")}*** End Patch\n`;
  const server = await startModelServer([
    turn(customCall("apply_patch", patch(edit("a.txt", "buffer line", "patched line")), "p1")),
    turn(customCall("apply_patch", patch(edit("a.txt", "patched line", "second edit"), edit("b.txt", "bee", "refused")), "p2")),
    turn(customCall("apply_patch", patch("*** Add File: sub/c.txt\n+new file\n"), "p3")),
    turn(text("edited")),
  ]);
  const ws = makeWorkspace();
  writeFileSync(join(ws.home, "config.toml"), configFor(server, 'approval_policy = "never"\nsandbox_mode = "workspace-write"\n'));
  writeFileSync(join(ws.dir, "a.txt"), "disk line\n");
  writeFileSync(join(ws.dir, "b.txt"), "bee\n");
  // The editor's buffers: a.txt has an unsaved change the disk does not have.
  const buffers = new Map<string, string>([
    [join(ws.dir, "a.txt"), "buffer line\n"],
    [join(ws.dir, "b.txt"), "bee\n"],
  ]);
  const writes: Array<[string, string]> = [];
  const { acp, sessionId } = await openSession(ws, {
    capabilities: { fs: { readTextFile: true, writeTextFile: true } },
    readTextFile: (r) => buffers.get(r.path) ?? readFileSync(r.path, "utf8"),
    writeTextFile: (r) => {
      writes.push([r.path, r.content]);
      if (r.path.endsWith("b.txt")) throw new Error("b.txt is read-only in this editor");
      buffers.set(r.path, r.content);
    },
  });
  await checked(acp, server, async () => {
    const result = await acp.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "edit the files" }] });
    assert.equal(result.stopReason, "end_turn");
    assert.match(callOutputText(server, "p1"), /Success/, "the patch matched the buffer, not the disk");
    assert.match(callOutputText(server, "p2"), /the editor refused the write/);
    assert.match(callOutputText(server, "p3"), /Success/);
    const a = join(ws.dir, "a.txt");
    const b = join(ws.dir, "b.txt");
    assert.deepEqual(writes, [
      [a, "patched line\n"],
      [a, "second edit\n"],
      [b, "refused\n"],
      [a, "patched line\n"],
    ], "the failed patch put a.txt back through the editor");
    assert.equal(buffers.get(a), "patched line\n");
    assert.equal(readFileSync(a, "utf8"), "disk line\n", "the editor, not codex-ts, writes its files");
    assert.equal(readFileSync(join(ws.dir, "sub/c.txt"), "utf8"), "new file\n", "a new file is created on disk");
    const diff = callUpdates(updatesOf(acp), "p1").find((u) => u.content?.some((c) => c.type === "diff"))?.content?.find((c) => c.type === "diff");
    assert.deepEqual(diff, { type: "diff", path: a, oldText: "buffer line", newText: "patched line" });
    assert.equal(callUpdates(updatesOf(acp), "p2").at(-1)?.status, "failed");
    const shown = acp.received.findIndex((m) => (m.params as { update?: { toolCallId?: string } } | undefined)?.update?.toolCallId === "p1");
    const written = acp.received.findIndex((m) => m.method === "fs/write_text_file");
    assert.ok(shown >= 0 && shown < written, "the editor hears of the edit before it is asked to write it");
  });
  await server.close();
});

void test("acp: stop reasons: the output limit is max_tokens, the content filter a refusal, another failure the prompt's error", async () => {
  const server = await startModelServer([
    { outputs: [text("a long ans")], incomplete: { reason: "max_output_tokens" } },
    { outputs: [], incomplete: { reason: "content_filter" } },
    { status: 400, errorBody: { error: { message: "bad thing", type: "invalid_request_error" } } },
    turn(text("fine")),
  ]);
  const ws = makeWorkspace();
  writeFileSync(join(ws.home, "config.toml"), configFor(server, "request_max_retries = 0\nstream_max_retries = 0\n"));
  const { acp, sessionId } = await openSession(ws);
  await checked(acp, server, async () => {
    const ask = (t: string): Promise<{ stopReason: string }> => acp.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: t }] });
    assert.equal((await ask("write a lot")).stopReason, "max_tokens");
    assert.equal((await ask("something bad")).stopReason, "refusal");
    await assert.rejects(ask("a bad request"), (err: Error & { code?: number }) => {
      assert.equal(err.code, -32603);
      assert.match(err.message, /bad thing/);
      return true;
    });
    assert.equal((await ask("and now")).stopReason, "end_turn");
    assert.equal(server.requests.length, 4, "an answer cut short is not retried");
  });
  await server.close();
});
