/**
 * What front ends get from the core instead of reaching into its folders: the settings the next
 * turn runs with, the models to switch to, MCP sign-in refusals, rollback counted by the core, and
 * the host's turn runner (end of turn detected once for every front end).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { EventMsg } from "../../src/protocol/events.js";
import { HostedThread } from "../../src/host/hosted-thread.js";
import { inputTexts, text, turn } from "../support/model-server.js";
import { until, withSession } from "../support/session.js";
import { stdioFixtureServer } from "../fixtures/mcp/stdio-server.js";

const last = (events: Array<{ msg: EventMsg }>): EventMsg | undefined => events.at(-1)?.msg;

void test("override_turn_context answers with settings_changed: what the next turn runs with", async () => {
  await withSession([], async (session) => {
    const id = session.submit({ type: "override_turn_context", model: "gpt-5.4", effort: "high", approval_policy: "on-request" });
    const events = await until(session, id, "settings_changed");
    const changed = last(events);
    assert.ok(changed?.type === "settings_changed");
    assert.equal(changed.model, "gpt-5.4");
    assert.equal(changed.reasoning_effort, "high");
    assert.equal(changed.approval_policy, "on-request");
    assert.deepEqual(changed.sandbox_policy, { type: "danger-full-access" });
  });
});

void test("list_models: the account's listed models in its order, else the catalog's with the current model first", async () => {
  await withSession([], async (session) => {
    const events = await until(session, session.submit({ type: "list_models" }), "list_models_response");
    const answer = last(events);
    assert.ok(answer?.type === "list_models_response");
    assert.equal(answer.source, "catalog");
    assert.equal(answer.models[0]?.slug, "gpt-5.5");
    assert.equal(answer.models[0]?.is_default, true);
    assert.ok(answer.models.length > 1);
  });
  const accountModels = [
    { slug: "gpt-5.4-mini", priority: 5, listed: true },
    { slug: "hidden-model", priority: 0, listed: false },
    { slug: "gpt-5.5", priority: 1, listed: true },
  ];
  await withSession(
    [],
    async (session) => {
      const events = await until(session, session.submit({ type: "list_models" }), "list_models_response");
      assert.deepEqual(last(events), {
        type: "list_models_response",
        source: "account",
        models: [
          { slug: "gpt-5.5", is_default: true },
          { slug: "gpt-5.4-mini", is_default: false },
        ],
      });
    },
    { accountModels },
  );
});

void test("mcp_sign_in: an unknown server and a stdio server are refused with a reason", async () => {
  const fx = stdioFixtureServer(["--name", "fx"]);
  await withSession(
    [],
    async (session) => {
      const unknown = await until(session, session.submit({ type: "mcp_sign_in", server: "nope" }), "mcp_sign_in_complete");
      assert.deepEqual(last(unknown), { type: "mcp_sign_in_complete", server: "nope", success: false, error: "No MCP server named nope in config.toml (configured: fx)." });
      const stdio = await until(session, session.submit({ type: "mcp_sign_in", server: "fx" }), "mcp_sign_in_complete");
      assert.deepEqual(last(stdio), {
        type: "mcp_sign_in_complete",
        server: "fx",
        success: false,
        error: "fx is a stdio server: it has no login; its credentials come from its command and env.",
      });
    },
    { mcpServers: { fx } },
  );
});

void test("rollback is counted by the core: a message that starts with a tag is a turn like any other", async () => {
  await withSession([turn(text("a1")), turn(text("a2")), turn(text("a3"))], async (session, server) => {
    const ask = (t: string): string => session.submit({ type: "user_input", items: [{ type: "text", text: t }] });
    await until(session, ask("u1"), "task_complete");
    await until(session, ask("<div> is misaligned"), "task_complete");
    // The front end showed two user messages and goes back to the second one: one turn.
    await until(session, session.submit({ type: "thread_rollback", num_turns: 1 }), "thread_rolled_back");
    await until(session, ask("u3"), "task_complete");
    const sent = inputTexts(server.requests[2]?.body.input);
    assert.deepEqual(sent.slice(-3), ["u1", "a1", "u3"]);
  });
});

void test("the host's turn runner: a turn ends at task_complete; a submission that fails before any task ends at its error", async () => {
  await withSession([turn(text("done"))], async (session) => {
    const thread = new HostedThread(session);
    const seen: string[] = [];
    const listener = (event: { msg: EventMsg }): void => void seen.push(event.msg.type);
    void thread.listen(listener);
    const done = await thread.runTurn({ type: "user_input", items: [{ type: "text", text: "go" }] }, listener);
    assert.equal(done.status, "completed");
    assert.equal(done.lastAgentMessage, "done");
    const refused = await thread.runTurn({ type: "review", review_request: { target: { type: "custom", instructions: " " } } }, listener);
    assert.equal(refused.status, "failed");
    assert.equal(refused.error, "Review prompt cannot be empty");
    assert.ok(seen.includes("session_configured") && seen.includes("task_complete"));
    await thread.shutdown();
    const after = await thread.runTurn({ type: "user_input", items: [{ type: "text", text: "again" }] }, listener);
    assert.equal(after.status, "ended");
  });
});
