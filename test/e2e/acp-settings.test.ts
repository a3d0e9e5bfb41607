/**
 * `codex-ts acp`: what the editor switches and sends. Modes (the permission presets and plan
 * mode), config options (mode, model, reasoning effort) and `session/set_model`; slash commands
 * and custom prompts; images, embedded files and links in a prompt. Every agent message is
 * checked against the ACP schema (test/support/acp-client.ts).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { ContentBlock, SessionUpdate } from "@agentclientprotocol/sdk";
import { agentText, checked, configFor, openSession, updatesOf } from "../support/acp-client.js";
import { makeWorkspace } from "../support/cli.js";
import { customCall, fnCall, inputTexts, startModelServer, text, turn, type JsonObject } from "../support/model-server.js";

const TINY_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

function toolNames(body: { tools?: JsonObject[] } | undefined): string[] {
  return (body?.tools ?? []).map((t) => String(t.name ?? t.type));
}

void test("acp: modes switch permissions and plan mode, config options switch the model and effort, and the editor is told each change", async () => {
  const server = await startModelServer([
    turn(text("planned")),
    turn(fnCall("exec_command", { cmd: "echo free > free.txt", yield_time_ms: 5000 }, "c1")),
    turn(text("ran it")),
    turn(text("on another model")),
    turn(text("on a third")),
  ]);
  const ws = makeWorkspace();
  writeFileSync(join(ws.home, "config.toml"), configFor(server, 'approval_policy = "untrusted"\nsandbox_mode = "read-only"\n'));
  const { acp, sessionId } = await openSession(ws);
  await checked(acp, server, async () => {
    const ask = (t: string): Promise<{ stopReason: string }> => acp.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: t }] });
    const modeUpdates = (): string[] => updatesOf(acp).flatMap((u: SessionUpdate) => (u.sessionUpdate === "current_mode_update" ? [u.currentModeId] : []));

    await acp.connection.agent.request("session/set_mode", { sessionId, modeId: "plan" });
    assert.deepEqual(modeUpdates(), ["plan"]);
    await ask("plan it");
    const planning = server.requests[0]?.body;
    assert.ok(!toolNames(planning).includes("apply_patch"), "no patch tool while planning");
    assert.ok(inputTexts(planning?.input).some((t) => t.includes("<collaboration_mode>plan</collaboration_mode>")));

    await acp.connection.agent.request("session/set_mode", { sessionId, modeId: "full-access" });
    assert.deepEqual(modeUpdates(), ["plan", "full-access"]);
    assert.equal((await ask("run it")).stopReason, "end_turn");
    assert.equal(acp.permissions.length, 0, "full access runs the command without asking");

    const options = await acp.connection.agent.request("session/set_config_option", { sessionId, configId: "model", value: "gpt-5.4" });
    const model = options.configOptions.find((o) => o.id === "model");
    assert.equal(model?.type === "select" ? model.currentValue : null, "gpt-5.4");
    await acp.connection.agent.request("session/set_config_option", { sessionId, configId: "reasoning_effort", value: "high" });
    await ask("again");
    assert.equal(server.requests[3]?.body.model, "gpt-5.4");
    assert.deepEqual((server.requests[3]?.body.reasoning as { effort?: string } | undefined)?.effort, "high");
    assert.ok(updatesOf(acp).some((u) => u.sessionUpdate === "config_option_update"));

    await acp.connection.agent.request("session/set_model", { sessionId, modelId: "gpt-5.2" });
    await ask("once more");
    assert.equal(server.requests[4]?.body.model, "gpt-5.2");

    await assert.rejects(acp.connection.agent.request("session/set_mode", { sessionId, modeId: "yolo" }), (err: Error & { code?: number }) => {
      assert.equal(err.code, -32602);
      assert.match(err.message, /unknown mode 'yolo' \(one of read-only, auto, full-access, plan\)/);
      return true;
    });
    await assert.rejects(acp.connection.agent.request("session/prompt", { sessionId: "no-such-session", prompt: [] }), /not found/i);
  });
  await server.close();
});

void test("acp: slash commands and custom prompts are offered and run; images, embedded files and links reach the model", async () => {
  const review = JSON.stringify({ findings: [], overall_correctness: "patch is correct", overall_explanation: "Nothing to fix.", overall_confidence_score: 0.9 });
  const server = await startModelServer([turn(text("fixed")), turn(text("written")), turn(text("seen")), turn(text(review))]);
  const ws = makeWorkspace();
  writeFileSync(join(ws.home, "config.toml"), configFor(server));
  mkdirSync(join(ws.home, "prompts"));
  writeFileSync(join(ws.home, "prompts", "fix.md"), "---\ndescription: fix an issue\nargument-hint: ISSUE\n---\nFix issue $1 carefully.\n");
  const { acp, sessionId } = await openSession(ws);
  await checked(acp, server, async () => {
    const prompt = (blocks: ContentBlock[]): Promise<unknown> =>
      acp.connection.agent.request("session/prompt", { sessionId, prompt: blocks });
    // The commands arrive after the session's answer.
    for (let i = 0; i < 100 && !updatesOf(acp).some((u) => u.sessionUpdate === "available_commands_update"); i++) await new Promise((r) => setTimeout(r, 20));
    const offered = updatesOf(acp).find((u) => u.sessionUpdate === "available_commands_update");
    assert.deepEqual(
      offered?.sessionUpdate === "available_commands_update" ? offered.availableCommands.map((c) => [c.name, c.description, c.input?.hint ?? null]) : null,
      [
        ["init", "ask the agent to write an AGENTS.md for this repository", null],
        ["compact", "summarise the conversation to free context", "what the summary must keep"],
        ["review", "review the uncommitted changes (or what the instructions say) and report problems", "what to review (default: uncommitted changes)"],
        ["undo", "put back the files the last turn that changed files changed", null],
        ["redo", "change the files again as the turn the last /undo took back had", null],
        ["prompts:fix", "fix an issue", "ISSUE"],
      ],
    );

    await prompt([{ type: "text", text: "/prompts:fix 42" }]);
    assert.ok(inputTexts(server.requests[0]?.body.input).includes("Fix issue 42 carefully.\n"));
    await prompt([{ type: "text", text: "/init" }]);
    assert.ok(inputTexts(server.requests[1]?.body.input).some((t) => t.startsWith("Create an AGENTS.md file")));

    const file = join(ws.dir, "notes.md");
    await prompt([
      { type: "text", text: "look at these" },
      { type: "image", data: TINY_PNG, mimeType: "image/png" },
      { type: "resource", resource: { uri: pathToFileURL(file).href, text: "unsaved notes", mimeType: "text/markdown" } },
      { type: "resource_link", uri: pathToFileURL(join(ws.dir, "README.md")).href, name: "README.md" },
    ]);
    const user = (server.requests[2]?.body.input ?? []).filter((i) => i.role === "user").at(-1);
    const content = (user?.content ?? []) as JsonObject[];
    assert.deepEqual(content.map((c) => c.type), ["input_text", "input_image", "input_text", "input_text"]);
    assert.equal(content[1]?.image_url, `data:image/png;base64,${TINY_PNG}`);
    assert.equal(content[2]?.text, `<context ref="${file}">\nunsaved notes\n</context>`);
    assert.equal(content[3]?.text, `[README.md](${join(ws.dir, "README.md")})`);

    let from = acp.updates.length;
    await prompt([{ type: "text", text: "/compact keep the notes" }]);
    assert.equal(server.compactions.length, 1);
    assert.equal(agentText(acp.updates, from), "Compacted: the conversation goes on from a summary.");
    from = acp.updates.length;
    await prompt([{ type: "text", text: "/review the notes" }]);
    assert.ok(inputTexts(server.requests[3]?.body.input).some((t) => t.includes("the notes")), "the review's instructions reach the reviewer");
    assert.equal(agentText(acp.updates, from), "Verdict: patch is correct\n\nNothing to fix.\n\nNo findings.");
  });
  await server.close();
});

void test("acp: /undo puts back what the last turn changed, /redo changes it again, and a file edited by hand is overwritten only after the editor says so", async () => {
  const patch = "*** Begin Patch\n*** Update File: notes.txt\n@@\n-first\n+patched\n*** Add File: added.txt\n+new\n*** End Patch\n";
  const server = await startModelServer([turn(customCall("apply_patch", patch, "p1")), turn(text("edited"))]);
  const ws = makeWorkspace({ git: false });
  execFileSync("git", ["init", "-q", ws.dir]);
  const notes = join(ws.dir, "notes.txt");
  writeFileSync(notes, "first\n");
  // Undo writes only where the agent may, so the session may write the workspace.
  writeFileSync(join(ws.home, "config.toml"), configFor(server, 'sandbox_mode = "workspace-write"\napproval_policy = "on-request"\n'));
  let overwrite = false;
  const { acp, sessionId } = await openSession(ws, {
    permission: (request) => {
      const undoQuestion = /changed by hand/.test(request.toolCall.title ?? "");
      const kind = !undoQuestion || overwrite ? "allow_once" : "reject_once";
      return { outcome: { outcome: "selected", optionId: request.options.find((o) => o.kind === kind)?.optionId ?? "" } };
    },
  });
  await checked(acp, server, async () => {
    const prompt = async (text: string): Promise<string> => {
      const from = acp.updates.length;
      const answer = await acp.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
      assert.equal(answer.stopReason, "end_turn");
      return agentText(acp.updates, from);
    };
    await prompt("edit the notes");
    assert.equal(readFileSync(notes, "utf8"), "patched\n");

    const from = acp.updates.length;
    assert.match(await prompt("/undo"), /^Restored 2 files\.\n- (added\.txt\n- notes\.txt|notes\.txt\n- added\.txt)$/);
    assert.equal(readFileSync(notes, "utf8"), "first\n");
    assert.equal(existsSync(join(ws.dir, "added.txt")), false);
    const call = updatesOf(acp, from).filter((u) => u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update");
    assert.deepEqual(call.map((u) => [u.sessionUpdate, u.status]), [["tool_call", "in_progress"], ["tool_call_update", "completed"]]);
    assert.equal(server.requests.length, 2, "no model request for /undo");

    // Edited by hand since: the editor is asked; keeping the edit changes nothing.
    writeFileSync(notes, "mine\n");
    assert.match(await prompt("/redo"), /^Nothing was changed; kept as you left it:\n- notes\.txt$/);
    assert.equal(readFileSync(notes, "utf8"), "mine\n");
    assert.equal(existsSync(join(ws.dir, "added.txt")), false);
    overwrite = true;
    assert.match(await prompt("/redo"), /^Put back 2 files\./);
    assert.equal(readFileSync(notes, "utf8"), "patched\n");
    assert.equal(readFileSync(join(ws.dir, "added.txt"), "utf8"), "new\n");
    assert.equal(acp.permissions.filter((p) => /changed by hand/.test(p.toolCall.title ?? "")).length, 2);
    assert.match(await prompt("/redo"), /\S/, "nothing left to redo is said");
  });
  await server.close();
});

