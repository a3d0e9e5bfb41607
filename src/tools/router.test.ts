import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildTools } from "./registry.js";
import { ToolRouter, type DispatchContext } from "./router.js";
import type { ToolHandler, ToolInvocation } from "./types.js";
import type { EventMsg } from "../protocol/events.js";
import type { ToolCallItem } from "../protocol/items.js";
import type { AskForApproval } from "../protocol/policy.js";
import { modelInfoFor } from "../model/catalog.js";
import { TurnDiffTracker } from "../patch/turn-diff.js";
import { Questions } from "../approval/questions.js";
import { NO_USER_TO_ASK } from "./handlers/request-user-input.js";
import { testTurn } from "../../test/support/turn-context.js";

function context(approvalPolicy: AskForApproval = "never", signal = new AbortController().signal): DispatchContext & { events: EventMsg[]; questions: Questions } {
  const cwd = mkdtempSync(join(tmpdir(), "codex-ts-router-"));
  const events: EventMsg[] = [];
  const questions = new Questions();
  return {
    events,
    questions,
    signal,
    emit: (msg) => events.push(msg),
    turnDiff: new TurnDiffTracker(cwd),
    turn: testTurn(cwd, { subId: "3", approvalPolicy, services: { questions } }),
  };
}

const call = (name: string, args: unknown, id = "call_1"): ToolCallItem => ({
  type: "function_call",
  name,
  call_id: id,
  arguments: typeof args === "string" ? args : JSON.stringify(args),
});

void test("a call that does not fit the offered schema gets one error and its handler never runs", async () => {
  let ran = 0;
  const handler: ToolHandler = {
    payloadKind: "function",
    handle: () => {
      ran++;
      return Promise.resolve({ text: "ran", success: true });
    },
  };
  const router = new ToolRouter(new Map([["exec_command", handler]]), buildTools(modelInfoFor("gpt-5.5")).specs);
  const ctx = context();
  const bad = await router.dispatch(call("exec_command", { workdir: "." }), ctx);
  assert.deepEqual(bad, { type: "function_call_output", call_id: "call_1", output: "failed to parse function arguments: missing field `cmd`" });
  assert.equal(ran, 0);
  assert.deepEqual(ctx.events, []);
  const good = await router.dispatch(call("exec_command", { cmd: "true" }), ctx);
  assert.deepEqual(good, { type: "function_call_output", call_id: "call_1", output: "ran" });
  assert.equal(ran, 1);
});

void test("a handler with its own check is asked instead of the offered schema", async () => {
  const seen: string[] = [];
  const handler: ToolHandler = {
    payloadKind: "function",
    checkArguments: (name, raw) => {
      seen.push(`${name} ${raw}`);
      return Promise.resolve(raw.includes("bad") ? "failed to parse function arguments: bad" : null);
    },
    handle: () => Promise.resolve({ text: "ok", success: true }),
  };
  const router = new ToolRouter(new Map([["mcp__s__t", handler]]), []);
  assert.deepEqual(await router.dispatch(call("mcp__s__t", { v: "bad" }), context()), {
    type: "function_call_output",
    call_id: "call_1",
    output: "failed to parse function arguments: bad",
  });
  assert.deepEqual(await router.dispatch(call("mcp__s__t", { v: 1 }), context()), { type: "function_call_output", call_id: "call_1", output: "ok" });
  assert.deepEqual(seen, ['mcp__s__t {"v":"bad"}', 'mcp__s__t {"v":1}']);
});

void test("custom (freeform) calls have no schema and go straight to the handler", async () => {
  const inputs: string[] = [];
  const handler: ToolHandler = {
    payloadKind: "any",
    handle: (inv: ToolInvocation) => {
      if (inv.payload.kind === "custom") inputs.push(inv.payload.input);
      return Promise.resolve({ text: "patched", success: true });
    },
  };
  const router = new ToolRouter(new Map([["apply_patch", handler]]), buildTools(modelInfoFor("gpt-5.5")).specs);
  const out = await router.dispatch({ type: "custom_tool_call", name: "apply_patch", call_id: "c", input: "not json at all" }, context());
  assert.deepEqual(out, { type: "custom_tool_call_output", call_id: "c", output: "patched" });
  assert.deepEqual(inputs, ["not json at all"]);
});

void test("view_image attaches the image as the call's output and says which file it was", async () => {
  const { router } = buildTools(modelInfoFor("gpt-5.5"));
  const ctx = context();
  const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
  writeFileSync(join(ctx.turn.cwd, "shot.png"), png);
  const out = await router.dispatch(call("view_image", { path: "shot.png" }), ctx);
  assert.deepEqual(out, {
    type: "function_call_output",
    call_id: "call_1",
    output: [{ type: "input_image", image_url: `data:image/png;base64,${png.toString("base64")}`, detail: "original" }],
  });
  assert.deepEqual(ctx.events, [{ type: "view_image_tool_call", call_id: "call_1", path: join(ctx.turn.cwd, "shot.png") }]);
  const missing = await router.dispatch(call("view_image", { path: "nope.png" }, "call_2"), ctx);
  assert.deepEqual(missing, {
    type: "function_call_output",
    call_id: "call_2",
    output: `unable to locate image at \`${join(ctx.turn.cwd, "nope.png")}\`: no such file or directory`,
  });
  assert.equal(ctx.events.length, 1, "no event for an image that was not attached");
});

const QUESTIONS = {
  questions: [
    {
      id: "color",
      header: "Color",
      question: "Which color?",
      options: [
        { label: "Red (Recommended)", description: "Warm." },
        { label: "Blue", description: "Cool." },
      ],
    },
  ],
};

void test("request_user_input asks through an event and returns the answers as JSON", async () => {
  const { router } = buildTools(modelInfoFor("gpt-5.5"));
  const ctx = context("on-request");
  const pending = router.dispatch(call("request_user_input", QUESTIONS, "call_q"), ctx);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(ctx.events, [
    {
      type: "question_asked",
      key: "call_q",
      request: {
        type: "request_user_input",
        call_id: "call_q",
        turn_id: "turn-3",
        questions: [{ ...QUESTIONS.questions[0], isOther: true, isSecret: false }],
      },
    },
  ]);
  const blue = { type: "user_input" as const, response: { answers: { color: { answers: ["Blue"] } } } };
  assert.equal(ctx.questions.answer("call_q", blue), true);
  assert.deepEqual(ctx.events.at(-1), { type: "question_resolved", key: "call_q", outcome: "answered", answer: blue });
  assert.deepEqual(await pending, { type: "function_call_output", call_id: "call_q", output: '{"answers":{"color":{"answers":["Blue"]}}}' });
});

void test("request_user_input: an interrupt cancels the question; empty options and approval policy never get a sentence", async () => {
  const { router } = buildTools(modelInfoFor("gpt-5.5"));
  const ctx = context("on-request");
  const pending = router.dispatch(call("request_user_input", QUESTIONS), ctx);
  await new Promise((r) => setImmediate(r));
  ctx.questions.cancelAll("interrupted");
  assert.deepEqual(ctx.events.at(-1), { type: "question_resolved", key: "call_1", outcome: "cancelled" });
  assert.deepEqual(await pending, {
    type: "function_call_output",
    call_id: "call_1",
    output: "request_user_input was cancelled before receiving a response",
  });

  const noOptions = { questions: [{ ...QUESTIONS.questions[0], options: [] }] };
  const empty = await router.dispatch(call("request_user_input", noOptions), context("on-request"));
  assert.deepEqual(empty, { type: "function_call_output", call_id: "call_1", output: "request_user_input requires non-empty options for every question" });

  const exec = context("never");
  assert.deepEqual(await router.dispatch(call("request_user_input", QUESTIONS), exec), { type: "function_call_output", call_id: "call_1", output: NO_USER_TO_ASK });
  assert.deepEqual(exec.events, [], "no question goes out when nobody can answer");
});
