/**
 * Sub-agents as live threads, driven through the host as a front end drives them: interrupting
 * the parent interrupts its children, closing the parent closes them, and a child's approval
 * question reaches the user through the parent's event stream, naming the agent, and is answered
 * there.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FrontEndHost } from "../../src/host/front-end-host.js";
import type { HostedThread } from "../../src/host/hosted-thread.js";
import { loadConfig } from "../../src/config/load-config.js";
import type { Event, EventMsg } from "../../src/protocol/events.js";
import type { EventStream } from "../../src/protocol/thread-handle.js";
import { collabCall, outputsIn, spawnedIn, startAgentServer, userTextsIn, type AgentScript } from "../support/agent-script.js";
import { fnCall, text, turn, type ModelServer, type RecordedRequest } from "../support/model-server.js";

interface Opened {
  host: FrontEndHost;
  thread: HostedThread;
  events: EventStream;
  server: ModelServer;
}

/** Runs `body` with a live thread of a fresh host against `script`; shuts both down after. */
async function withThread(script: AgentScript, settings: string[], body: (opened: Opened) => Promise<void>): Promise<void> {
  const opened = await openThread(script, settings);
  try {
    await body(opened);
  } finally {
    await opened.host.shutdown();
    await opened.server.close();
  }
}

async function openThread(script: AgentScript, settings: string[]): Promise<Opened> {
  const server = await startAgentServer(script);
  const home = mkdtempSync(join(tmpdir(), "codex-ts-agents-home-"));
  const cwd = mkdtempSync(join(tmpdir(), "codex-ts-agents-cwd-"));
  mkdirSync(join(cwd, ".git"));
  writeFileSync(join(home, "config.toml"), `openai_base_url = "${server.url}"\n`);
  const env = { CODEX_HOME: home, OPENAI_API_KEY: "sk-test", PATH: process.env.PATH ?? "" };
  const host = new FrontEndHost("tui", env);
  const thread = await host.open({ config: loadConfig({ cwd, overrides: settings, env }) });
  await host.ready(thread);
  return { host, thread, events: thread.subscribe(), server };
}

/** Reads until an event `matches`; returns it. */
async function next(events: EventStream, matches: (msg: EventMsg) => boolean, what: string): Promise<Event> {
  for (;;) {
    const event = await events.next();
    if (!event) throw new Error(`the thread ended before ${what}`);
    if (matches(event.msg)) return event;
  }
}

const childStatus = (name: string) => (msg: EventMsg): boolean => msg.type === "sub_agent_status" && JSON.stringify(msg.status).includes(name);

/** A child that starts a command which would run for half a minute. */
const SLOW_CHILD: AgentScript["child"] = (_task, request) =>
  outputsIn(request).size === 0 ? turn(fnCall("exec_command", { cmd: "sleep 30", yield_time_ms: 30_000 }, "slow")) : turn(text("stopped"));

void test("interrupting the parent interrupts the child it waits for", async () => {
  await withThread(
    {
      parent: [turn(collabCall("spawn_agent", { message: "run the slow thing" }, "s")), (r) => turn(collabCall("wait_agent", { targets: spawnedIn(r), timeout_ms: 60_000 }, "w"))],
      child: SLOW_CHILD,
    },
    ['sandbox_mode="danger-full-access"', 'approval_policy="never"'],
    async ({ host, thread, events, server }) => {
      thread.submit({ type: "user_input", items: [{ type: "text", text: "go" }] });
      await next(events, childStatus("running"), "the child running");
      // The parent is in wait_agent, the child in its command: both stop.
      await server.waitForRequests(3);
      thread.submit({ type: "interrupt" });
      await next(events, (m) => m.type === "turn_aborted", "the parent's turn_aborted");
      const interrupted = await next(events, childStatus("interrupted"), "the child interrupted");
      assert.ok(interrupted.msg.type === "sub_agent_status");
      const [child] = host.subAgents(thread.threadId);
      assert.equal(child?.status, "interrupted");
      assert.equal(child?.closed, false);
    },
  );
});

void test("closing the parent closes its children: their threads shut down and are no longer live", async () => {
  await withThread(
    { parent: [turn(collabCall("spawn_agent", { message: "run the slow thing" }, "s")), turn(text("started a helper"))], child: SLOW_CHILD },
    ['sandbox_mode="danger-full-access"', 'approval_policy="never"'],
    async ({ host, thread, events }) => {
      thread.submit({ type: "user_input", items: [{ type: "text", text: "go" }] });
      await next(events, (m) => m.type === "task_complete", "the parent's turn to end");
      const [child] = host.subAgents(thread.threadId);
      assert.ok(child?.thread, "the child still works after the parent's turn");
      const childEvents = child.thread.subscribe();
      await host.close(thread.threadId);
      const ended = await next(childEvents, (m) => m.type === "shutdown_complete", "the child's shutdown");
      assert.equal(ended.msg.type, "shutdown_complete");
      assert.deepEqual(host.subAgents(thread.threadId), []);
    },
  );
});

void test("a child's approval question reaches the parent's front end naming the agent, and the answer there lets the child go on", async () => {
  const script: AgentScript = {
    parent: [
      turn(collabCall("spawn_agent", { message: "needs approval" }, "s")),
      (r) => turn(collabCall("wait_agent", { targets: spawnedIn(r), timeout_ms: 60_000 }, "w")),
      turn(text("the helper is done")),
    ],
    child: (_task, request) =>
      outputsIn(request).size === 0
        ? turn(fnCall("exec_command", { cmd: "echo approved-run", sandbox_permissions: "require_escalated", justification: "needs the network" }, "esc"))
        : turn(text(`ran: ${outputsIn(request).get("esc")?.includes("approved-run") === true}`)),
  };
  await withThread(script, ['sandbox_mode="workspace-write"', 'approval_policy="on-request"'], async ({ host, thread, events, server }) => {
    thread.submit({ type: "user_input", items: [{ type: "text", text: "go" }] });
    const asked = await next(events, (m) => m.type === "question_asked", "the child's question");
    assert.ok(asked.msg.type === "question_asked");
    const [child] = host.subAgents(thread.threadId);
    assert.ok(child);
    assert.deepEqual(asked.msg.agent, { thread_id: child.thread_id, agent_nickname: child.agent_nickname, agent_role: null });
    assert.equal(asked.msg.key, `${child.thread_id}:esc`);
    assert.equal(asked.msg.request.type, "exec_approval_request");
    thread.submit({ type: "answer_question", key: asked.msg.key, answer: { type: "decision", decision: "approved" } });
    const resolved = await next(events, (m) => m.type === "question_resolved", "the question closed on the parent's side");
    assert.deepEqual(resolved.msg, { type: "question_resolved", key: asked.msg.key, outcome: "answered", answer: { type: "decision", decision: "approved" } });
    await next(events, (m) => m.type === "task_complete", "the parent's turn to end");
    const wait = outputsIn(server.requests.at(-1) as RecordedRequest).get("w");
    assert.equal(wait, JSON.stringify({ status: { [child.thread_id]: { completed: "ran: true" } }, timed_out: false }));
    // The child asked under the parent's policies: the same approval policy and sandbox.
    const childRequest = server.requests.find((r) => userTextsIn(r).includes("needs approval"));
    const context = userTextsIn(childRequest as RecordedRequest).join("\n");
    assert.match(context, /<approval_policy>on-request<\/approval_policy>/);
    assert.match(context, /<sandbox_mode>workspace-write<\/sandbox_mode>/);
  });
});

void test("narrowing the parent's sandbox narrows its open children from their next turn", async () => {
  const script: AgentScript = {
    parent: [
      turn(collabCall("spawn_agent", { message: "look" }, "s")),
      (r) => turn(collabCall("wait_agent", { targets: spawnedIn(r), timeout_ms: 60_000 }, "w")),
      turn(text("first done")),
      (r) => turn(collabCall("send_input", { target: spawnedIn(r)[0], message: "look again" }, "si")),
      (r) => turn(collabCall("wait_agent", { targets: spawnedIn(r), timeout_ms: 60_000 }, "w2")),
      turn(text("second done")),
    ],
    child: () => turn(text("looked")),
  };
  await withThread(script, ['sandbox_mode="workspace-write"', 'approval_policy="on-request"'], async ({ thread, events, server }) => {
    thread.submit({ type: "user_input", items: [{ type: "text", text: "go" }] });
    await next(events, (m) => m.type === "task_complete", "the first turn");
    thread.submit({ type: "override_turn_context", sandbox_policy: { type: "read-only" }, approval_policy: "untrusted" });
    thread.submit({ type: "user_input", items: [{ type: "text", text: "again" }] });
    await next(events, (m) => m.type === "task_complete", "the second turn");
    const childRequests = server.requests.filter((r) => userTextsIn(r).includes("look"));
    const context = userTextsIn(childRequests.at(-1) as RecordedRequest).filter((t) => t.startsWith("<environment_context>")).at(-1) ?? "";
    assert.match(context, /<sandbox_mode>read-only<\/sandbox_mode>/);
    assert.match(context, /<approval_policy>untrusted<\/approval_policy>/);
  });
});
