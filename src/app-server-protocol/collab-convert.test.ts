import { test } from "node:test";
import assert from "node:assert/strict";
import type { CollabEventMsg } from "../protocol/collab.js";
import { collabBeginEvent, collabBeginItem, collabEndEvent, collabEndItem, isCollabBegin } from "./collab-convert.js";

const P = "01a2180b-0bc5-77f0-b73d-a8e3e1d8cd1c";
const A = "01a2180b-0c26-7f0d-a409-5103a169a860";
const call = { call_id: "call_1", sender_thread_id: P };
const receiver = { receiver_thread_id: A, receiver_agent_nickname: "Ada", receiver_agent_role: null };

void test("spawn: started with no receiver, completed with the child and its state; the model and effort carried", () => {
  const begin: CollabEventMsg = { type: "collab_agent_spawn_begin", ...call, prompt: "look", model: "gpt-5.4", reasoning_effort: "low" };
  assert.ok(isCollabBegin(begin));
  const started = collabBeginItem(begin);
  assert.deepEqual(started, {
    type: "collabAgentToolCall",
    id: "call_1",
    tool: "spawnAgent",
    status: "inProgress",
    senderThreadId: P,
    receiverThreadIds: [],
    prompt: "look",
    model: "gpt-5.4",
    reasoningEffort: "low",
    agentsStates: {},
  });
  const done = collabEndItem({ type: "collab_agent_spawn_end", ...call, new_thread_id: A, new_agent_nickname: "Ada", new_agent_role: null, prompt: "look", model: "gpt-5.4", reasoning_effort: "low", status: "pending_init" });
  assert.equal(done.status, "completed");
  assert.deepEqual(done.receiverThreadIds, [A]);
  assert.deepEqual(done.agentsStates, { [A]: { status: "pendingInit", message: null } });
  // And back (the remote UI): the same call, the agent named by id.
  const back = collabEndEvent(done);
  assert.equal(back.type, "collab_agent_spawn_end");
  assert.equal(back.type === "collab_agent_spawn_end" && back.new_thread_id, A);
  assert.equal(back.type === "collab_agent_spawn_end" && back.status, "pending_init");
  assert.equal(collabBeginEvent(started).type, "collab_agent_spawn_begin");
});

void test("a spawn that started nothing, and a wait that found an errored agent, are failed", () => {
  const refused = collabEndItem({ type: "collab_agent_spawn_end", ...call, new_thread_id: null, new_agent_nickname: null, new_agent_role: null, prompt: "x", model: "m", reasoning_effort: "", status: { errored: "limit" } });
  assert.equal(refused.status, "failed");
  assert.deepEqual(refused.receiverThreadIds, []);
  assert.equal(refused.reasoningEffort, null, "no effort is not an effort");
  const waited = collabEndItem({ type: "collab_waiting_end", ...call, agent_statuses: [], statuses: { [A]: { errored: "boom" } } });
  assert.equal(waited.status, "failed");
  assert.deepEqual(waited.agentsStates, { [A]: { status: "errored", message: "boom" } });
  const back = collabEndEvent(waited);
  assert.deepEqual(back.type === "collab_waiting_end" && back.statuses, { [A]: { errored: "boom" } });
});

void test("resume keeps its own tool name; close reports the status the agent had; completed answers come back", () => {
  assert.equal(collabBeginItem({ type: "collab_resume_begin", ...call, ...receiver }).tool, "resumeAgent");
  const closed = collabEndItem({ type: "collab_close_end", ...call, ...receiver, status: { completed: "done it" } });
  assert.deepEqual(closed.agentsStates, { [A]: { status: "completed", message: "done it" } });
  const back = collabEndEvent(closed);
  assert.deepEqual(back.type === "collab_close_end" && back.status, { completed: "done it" });
  assert.equal(back.type === "collab_close_end" && back.receiver_agent_nickname, null, "items carry no nicknames");
});
