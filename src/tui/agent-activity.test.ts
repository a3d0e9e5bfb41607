import { test } from "node:test";
import assert from "node:assert/strict";
import { createTheme, stripAnsi } from "./parts/theme.js";
import { markdownTheme, type CellStyle } from "./cells.js";
import { AgentActivity, agentActivityCell } from "./agent-activity.js";
import { AgentView } from "./agent-view.js";
import type { Event } from "../protocol/events.js";
import type { Op } from "../protocol/ops.js";
import type { EventStream, ThreadHandle } from "../protocol/thread-handle.js";
import type { AgentStatus, CollabEventMsg } from "../protocol/collab.js";

const theme = createTheme(0);
const style: CellStyle = { theme, markdown: markdownTheme(theme), diff: () => [] };
const plain = (lines: string[]): string[] => lines.map((l) => stripAnsi(l).trimEnd());
const P = "01a21734-942b-73e3-b6f1-d998a9212d4f";
const A = "01a21734-94da-7f62-85b3-fc7a5b358fb7";

const status = (s: AgentStatus): CollabEventMsg => ({
  type: "sub_agent_status",
  parent_thread_id: P,
  depth: 1,
  thread_id: A,
  agent_nickname: "Ada",
  agent_role: "explorer",
  status: s,
});

void test("sub-agents' cells name them: started with the task, working, done with the answer; a live line while they work", () => {
  const activity = new AgentActivity();
  const spawned = activity.handle({
    type: "collab_agent_spawn_end",
    call_id: "s",
    sender_thread_id: P,
    new_thread_id: A,
    new_agent_nickname: "Ada",
    new_agent_role: "explorer",
    prompt: "find the parser",
    model: "gpt-5.5",
    reasoning_effort: "medium",
    status: "pending_init",
  });
  assert.ok(spawned);
  assert.deepEqual(plain(agentActivityCell(spawned, style, 60)), ["• Started Ada (explorer)", "  └ find the parser", ""]);
  assert.deepEqual(plain(activity.liveLines(style, 60)), ["◦ Ada (explorer) is starting (/agent to watch)", ""]);
  const working = activity.handle(status("running"));
  assert.deepEqual(plain(agentActivityCell(working ?? { title: "", detail: null, tone: "info" }, style, 60)), ["• Ada (explorer) is working", ""]);
  const done = activity.handle(status({ completed: "src/parser.ts\nline two\nthree\nfour\nfive" }));
  assert.deepEqual(plain(agentActivityCell(done ?? { title: "", detail: null, tone: "info" }, style, 60)), [
    "• Ada (explorer) is done",
    "  └ src/parser.ts",
    "    line two",
    "    three",
    "    … 2 more line(s)",
    "",
  ]);
  assert.deepEqual(activity.liveLines(style, 60), [], "nothing is live once they are done");
  assert.equal(activity.handle(status("shutdown")), null, "a close is told by the call that closed it");
});

/** A thread that records the ops it is given and whose events a test pushes. */
function fakeThread(id: string): ThreadHandle & { ops: Op[]; push(event: Event): void } {
  const queue: Event[] = [];
  let wake: (() => void) | null = null;
  const stream: EventStream = {
    next: async () => {
      while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      return queue.shift() ?? null;
    },
    unsubscribe: () => undefined,
    [Symbol.asyncIterator]: () => ({ next: async () => ({ done: true, value: undefined }) }),
  };
  const ops: Op[] = [];
  return {
    threadId: id,
    ops,
    submit: (op) => String(ops.push(op)),
    nextEvent: () => stream.next(),
    subscribe: () => stream,
    push: (event) => {
      queue.push(event);
      wake?.();
    },
  };
}

void test("/agent: what the user types goes to the watched sub-agent; the main thread's questions still show and are answered there", async () => {
  const shown: Event[] = [];
  let resets = 0;
  const view = new AgentView({ show: (e) => shown.push(e), reset: () => resets++, watchedEnded: () => undefined });
  const main = fakeThread(P);
  const child = fakeThread(A);
  const ev = (msg: Event["msg"]): Event => ({ id: "1", msg });
  view.mainEvent(ev({ type: "task_started", turn_id: "t", model_context_window: null }));
  view.switchTo({ thread_id: A, agent_nickname: "Ada", agent_role: null, status: "running", closed: false, depth: 1, thread: child, redraw: () => null }, null);
  assert.equal(view.watching, A);
  child.push(ev({ type: "agent_message", message: "from the child" }));
  await new Promise((resolve) => setImmediate(resolve));
  // Held: the main thread's own progress; shown: a question of its own; hidden: the watched child's relayed copy.
  view.mainEvent(ev({ type: "agent_message_delta", delta: "x" }));
  view.mainEvent(ev({ type: "agent_message", message: "main meanwhile" }));
  const request = { type: "request_user_input" as const, call_id: "q", turn_id: "t", questions: [] };
  view.mainEvent(ev({ type: "question_asked", key: "main-q", request }));
  view.mainEvent(ev({ type: "question_asked", key: `${A}:q`, request, agent: { thread_id: A, agent_nickname: "Ada", agent_role: null } }));
  // The main thread's turn start; then the child, drawn as running (it was), its message; then the main thread's question.
  assert.deepEqual(
    shown.map((e) => e.msg.type),
    ["task_started", "task_started", "agent_message", "question_asked"],
  );
  assert.equal(view.route({ type: "user_input", items: [] }, main), child);
  assert.equal(view.route({ type: "interrupt" }, main), child);
  assert.equal(view.route({ type: "answer_question", key: "main-q", answer: { type: "cancel" } }, main), main);
  assert.equal(view.route({ type: "shutdown" }, main), main);
  shown.length = 0;
  view.switchTo(null, null);
  assert.equal(view.watching, null);
  // Back on the main thread: it was running (drawn so), then what it did meanwhile, deltas left out.
  assert.deepEqual(shown.map((e) => e.msg.type), ["task_started", "agent_message"]);
  assert.equal(resets, 2);
  assert.equal(view.route({ type: "user_input", items: [] }, main), main);
});

void test("/agent on a closed sub-agent: its recorded conversation is drawn to read; work is refused, the UI's own requests go to the main thread", () => {
  const shown: Event[] = [];
  const view = new AgentView({ show: (e) => shown.push(e), reset: () => undefined, watchedEnded: () => undefined });
  const main = fakeThread(P);
  const recorded: Event["msg"] = {
    type: "session_configured",
    session_id: A,
    model: "gpt-5.4",
    model_provider_id: "openai",
    approval_policy: "on-request",
    sandbox_policy: { type: "read-only" },
    cwd: "/w",
    reasoning_effort: null,
    history_log_id: 0,
    history_entry_count: 0,
    rollout_path: null,
    initial_messages: [{ type: "agent_message", message: "what the child said" }],
  };
  view.switchTo({ thread_id: A, agent_nickname: "Ada", agent_role: null, status: "shutdown", closed: true, depth: 1, thread: null, redraw: () => recorded }, recorded);
  assert.equal(view.watching, A);
  assert.deepEqual(shown.map((e) => e.msg.type), ["session_configured"], "drawn as recorded, not as running");
  assert.equal(view.route({ type: "user_input", items: [] }, main), null);
  assert.equal(view.route({ type: "interrupt" }, main), null);
  assert.equal(view.route({ type: "list_custom_prompts" }, main), main);
  assert.equal(view.route({ type: "shutdown" }, main), main);
  // A closed sub-agent with nothing to draw is not shown: the main thread stays.
  view.switchTo({ thread_id: A, agent_nickname: "Ada", agent_role: null, status: "shutdown", closed: true, depth: 1, thread: null, redraw: () => null }, null);
  assert.equal(view.watching, null);
});
