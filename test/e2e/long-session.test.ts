/**
 * Long sessions through the core and the scripted model server: token accounting and rate
 * limits, manual and automatic compaction (local summary and the server-side endpoint), a
 * window that overflows anyway, rollback, and resuming after each.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Event, EventMsg } from "../../src/protocol/events.js";
import { COMPACTION_SUMMARY_PREFIX, loadThread } from "../../src/rollout/reconstruct.js";
import { SUMMARIZATION_PROMPT } from "../../src/core/compact/prompt.js";
import { customCall, errorTurn, inputTexts, estimatedRequestTokens, fnCall, startModelServer, text, turn, type JsonObject, type ModelServer, type RecordedRequest, type ScriptedTurn } from "../support/model-server.js";
import { until, withSession } from "../support/session.js";
import { readLines } from "../support/rollout.js";
import { recordedSession, resumedSession } from "../support/recorded-session.js";
import { exec, jsonLines, makeWorkspace } from "../support/cli.js";

type TokenCount = Extract<EventMsg, { type: "token_count" }>;
const BASE = "You are a test agent. Do what the user asks.";
const counts = (events: Event[]): TokenCount[] => events.flatMap((e) => (e.msg.type === "token_count" ? [e.msg] : []));

function lastUserText(req: RecordedRequest): string {
  const input = req.body.input ?? [];
  const last = input[input.length - 1] as { content?: Array<{ text?: string }> } | undefined;
  return last?.content?.[0]?.text ?? "";
}
const isSummaryRequest = (req: RecordedRequest): boolean => lastUserText(req).startsWith(SUMMARIZATION_PROMPT);

void test("token_count: total and last usage, the window from config, and the rate limits from headers with the merge rule", async () => {
  const first: ScriptedTurn = {
    outputs: [text("one")],
    usage: { input: 100, output: 10, cached: 40, reasoning: 5 },
    headers: {
      "x-codex-primary-used-percent": "25",
      "x-codex-primary-window-minutes": "300",
      "x-codex-primary-reset-at": "1900000000",
      "x-codex-secondary-used-percent": "50",
      "x-codex-secondary-window-minutes": "10080",
      "x-codex-credits-has-credits": "true",
      "x-codex-credits-unlimited": "false",
      "x-codex-credits-balance": "12.50",
      "x-codex-plan-type": "pro",
    },
  };
  const second: ScriptedTurn = { outputs: [text("two")], usage: { input: 200, output: 20 }, headers: { "x-codex-primary-used-percent": "30" } };
  await withSession(
    [first, second],
    async (session) => {
      const a = await until(session, session.submit({ type: "user_input", items: [{ type: "text", text: "one" }] }), "task_complete");
      const b = await until(session, session.submit({ type: "user_input", items: [{ type: "text", text: "two" }] }), "task_complete");
      const [limitsOnly, afterFirst] = counts(a);
      // Headers arrive before the stream: their snapshot is told at once, usage follows.
      assert.equal(limitsOnly?.info, null);
      assert.deepEqual(limitsOnly?.rate_limits, {
        limit_id: "codex",
        limit_name: null,
        primary: { used_percent: 25, window_minutes: 300, resets_at: 1900000000 },
        secondary: { used_percent: 50, window_minutes: 10080, resets_at: null },
        credits: { has_credits: true, unlimited: false, balance: "12.50" },
        plan_type: "pro",
      });
      const usage1 = { input_tokens: 100, cached_input_tokens: 40, output_tokens: 10, reasoning_output_tokens: 5, total_tokens: 110 };
      assert.deepEqual(afterFirst?.info, { total_token_usage: usage1, last_token_usage: usage1, model_context_window: 32_000 });
      const last = counts(b).at(-1);
      assert.deepEqual(last?.info?.last_token_usage, { input_tokens: 200, cached_input_tokens: 0, output_tokens: 20, reasoning_output_tokens: 0, total_tokens: 220 });
      assert.equal(last?.info?.total_token_usage.total_tokens, 330);
      assert.deepEqual(last?.rate_limits?.primary, { used_percent: 30, window_minutes: null, resets_at: null });
      assert.equal(last?.rate_limits?.secondary, null);
      assert.equal(last?.rate_limits?.plan_type, "pro");
      assert.equal(last?.rate_limits?.credits?.balance, "12.50");
    },
    { modelSettings: { contextWindow: 32_000, toolOutputTokenLimit: null, supportsReasoningSummaries: null, features: {} } },
  );
});

void test("manual compact: a local summary replaces history behind an unchanged prefix; the rollout's compacted line resumes as is", async () => {
  const server = await startModelServer([turn(text("Noted the plan.")), turn(text("SUMMARY: plan noted, nothing built yet.")), turn(text("Continuing."))]);
  const { session, path } = recordedSession(server, { baseInstructionsOverride: BASE });
  try {
    await until(session, session.submit({ type: "user_input", items: [{ type: "text", text: "plan the parser" }] }), "task_complete");
    const compactId = session.submit({ type: "compact", instructions: "the parser's file names" });
    const events = await until(session, compactId, "task_complete");
    const mine = events.filter((e) => e.id === compactId).map((e) => e.msg.type);
    // The summary request's usage, the new history's estimate, then the event the front ends show.
    assert.deepEqual(mine, ["task_started", "token_count", "token_count", "context_compacted", "task_complete"]);
    const summaryReq = server.requests[1];
    assert.ok(summaryReq && isSummaryRequest(summaryReq));
    assert.deepEqual(summaryReq.body.tools, []);
    assert.match(lastUserText(summaryReq), /keep in particular: the parser's file names$/);

    await until(session, session.submit({ type: "user_input", items: [{ type: "text", text: "now build it" }] }), "task_complete");
    const before = server.requests[0]?.body.input ?? [];
    const after = server.requests[2]?.body.input ?? [];
    // Base instructions and initial context are byte-identical: the provider's cached prefix still hits.
    const contextEnd = before.findIndex((i) => inputTexts([i])[0] === "plan the parser");
    assert.deepEqual(after.slice(0, contextEnd), before.slice(0, contextEnd));
    assert.deepEqual(inputTexts(after.slice(contextEnd)), [
      "plan the parser",
      `${COMPACTION_SUMMARY_PREFIX}SUMMARY: plan noted, nothing built yet.`,
      "now build it",
    ]);
    const compacted = readLines(path).filter((l) => l.type === "compacted");
    assert.equal(compacted.length, 1);
    assert.equal(compacted[0]?.payload.message, "SUMMARY: plan noted, nothing built yet.");
    assert.ok(Array.isArray(compacted[0]?.payload.replacement_history));
    assert.ok(readLines(path).some((l) => l.type === "event_msg" && l.payload.type === "context_compacted"));
  } finally {
    session.submit({ type: "shutdown" });
  }
  // Resume: the history is the compacted one plus what followed, exactly as the live session had it.
  server.push(turn(text("Resumed.")));
  const resumed = resumedSession(server, path, { baseInstructionsOverride: BASE });
  try {
    await until(resumed, resumed.submit({ type: "user_input", items: [{ type: "text", text: "go on" }] }), "task_complete");
    const live = server.requests[2]?.body.input ?? [];
    const next = server.requests[3]?.body.input ?? [];
    assert.deepEqual(next.slice(0, live.length), live);
    assert.deepEqual(server.violations, []);
  } finally {
    resumed.submit({ type: "shutdown" });
    await server.close();
  }
});

void test("server-side compaction: /responses/compact gets the history and its output (opaque item included) becomes history and resumes", async () => {
  const server = await startModelServer([turn(customCall("apply_patch", "*** Begin Patch\n*** Add File: notes.md\n+hi\n*** End Patch\n", "c1")), turn(text("Wrote notes.md.")), turn(text("After compaction."))]);
  const { session, path } = recordedSession(server, { baseInstructionsOverride: BASE, remoteCompaction: true });
  try {
    await until(session, session.submit({ type: "user_input", items: [{ type: "text", text: "write notes" }] }), "task_complete");
    const events = await until(session, session.submit({ type: "compact" }), "task_complete");
    assert.ok(events.some((e) => e.msg.type === "context_compacted"));
    assert.equal(server.compactions.length, 1);
    const body = server.compactions[0]?.body ?? {};
    assert.deepEqual(Object.keys(body), ["model", "input", "instructions", "tools", "parallel_tool_calls"]);
    assert.equal(body.instructions, BASE);
    assert.ok(inputTexts(body.input as JsonObject[]).includes("write notes"));

    await until(session, session.submit({ type: "user_input", items: [{ type: "text", text: "more" }] }), "task_complete");
    const input = server.requests[2]?.body.input ?? [];
    assert.ok(input.some((i) => i.type === "compaction" && i.encrypted_content === "compacted-history-1"));
    // The working state keeps the patched file in view although its call is gone.
    assert.ok(!input.some((i) => i.type === "custom_tool_call"));
    assert.ok(inputTexts(input).some((t) => t.startsWith("<working_state>") && t.includes("- notes.md")));
    const line = readLines(path).find((l) => l.type === "compacted");
    assert.equal(line?.payload.message, "");
    assert.equal(JSON.stringify(loadThread(path).history.slice(0, input.length - 1)), JSON.stringify(input.slice(1, input.length)));
  } finally {
    session.submit({ type: "shutdown" });
    await server.close();
  }
});

void test("thread_rollback: its two refusals, dropping the last turn, and a resume that replays the drop", async () => {
  const server = await startModelServer([turn(text("a1")), turn(text("a2")), { outputs: [text("a3")], delayMs: 300 }, turn(text("a4")), turn(text("a5"))]);
  const { session, path } = recordedSession(server, { baseInstructionsOverride: BASE });
  const ask = (t: string): string => session.submit({ type: "user_input", items: [{ type: "text", text: t }] });
  try {
    await until(session, ask("u1"), "task_complete");
    await until(session, ask("u2"), "task_complete");
    const zero = await until(session, session.submit({ type: "thread_rollback", num_turns: 0 }), "error");
    assert.deepEqual(zero.at(-1)?.msg, { type: "error", message: "num_turns must be >= 1", codex_error_info: "thread_rollback_failed" });
    const running = ask("u3");
    const busy = await until(session, session.submit({ type: "thread_rollback", num_turns: 1 }), "error");
    const refusal = busy.at(-1)?.msg;
    assert.equal(refusal?.type === "error" && refusal.message, "Cannot rollback while a turn is in progress.");
    await until(session, running, "task_complete");
    const rb = session.submit({ type: "thread_rollback", num_turns: 1 });
    const events = await until(session, rb, "thread_rolled_back");
    assert.deepEqual(events.filter((e) => e.id === rb).map((e) => e.msg.type), ["token_count", "thread_rolled_back"]);
    const estimate = counts(events).at(-1)?.info?.last_token_usage;
    assert.ok(estimate && estimate.total_tokens > 0 && estimate.input_tokens === 0);
    await until(session, ask("u4"), "task_complete");
    const sent = inputTexts(server.requests[3]?.body.input);
    assert.deepEqual(sent.slice(-5), ["u1", "a1", "u2", "a2", "u4"]);
  } finally {
    session.submit({ type: "shutdown" });
  }
  assert.ok(readLines(path).some((l) => l.type === "event_msg" && l.payload.type === "thread_rolled_back"));
  const resumed = resumedSession(server, path, { baseInstructionsOverride: BASE });
  try {
    const rb = resumed.submit({ type: "thread_rollback", num_turns: 99 });
    await until(resumed, rb, "thread_rolled_back");
    await until(resumed, resumed.submit({ type: "user_input", items: [{ type: "text", text: "fresh" }] }), "task_complete");
    const sent = inputTexts(server.requests[4]?.body.input);
    assert.ok(!sent.some((t) => /^(u\d|a\d)$/.test(t)), `only the initial context should be left: ${JSON.stringify(sent)}`);
    assert.equal(sent.at(-1), "fresh");
    assert.deepEqual(server.violations, []);
  } finally {
    resumed.submit({ type: "shutdown" });
    await server.close();
  }
});

const STEPS = 300;
const WINDOW = 32_000;

/** The scripted agent of the long session: a plan, then one patch per step, then a final answer. */
function longSessionAgent(): { respond: (req: RecordedRequest) => ScriptedTurn; summaries: () => number } {
  let step = 0;
  let summaries = 0;
  return {
    summaries: () => summaries,
    respond: (req) => {
      if (isSummaryRequest(req)) {
        summaries += 1;
        return turn(text(`Summary ${summaries}: files step-1 to step-${step} are written; continue with step-${step + 1} until step-${STEPS}.`));
      }
      step += 1;
      if (step === 1) return turn(fnCall("update_plan", { plan: [{ step: "write every step file", status: "in_progress" }, { step: "report", status: "pending" }] }, "plan"));
      if (step > STEPS + 1) return turn(text(`All ${STEPS} files are written.`));
      const n = step - 1;
      const body = `+step ${n}: ${"lorem ipsum dolor sit amet ".repeat(30)}\n`;
      return turn(text(`Writing step-${n}.`), customCall("apply_patch", `*** Begin Patch\n*** Add File: step-${n}.txt\n${body}*** End Patch\n`, `call-${n}`));
    },
  };
}

const longSettings = {
  modelSettings: { contextWindow: WINDOW, toolOutputTokenLimit: null, supportsReasoningSummaries: null, features: {} },
  baseInstructionsOverride: BASE,
  settings: { model: "gpt-5.1-codex" },
};

void test(`a ${STEPS}-step session in a ${WINDOW}-token window compacts by itself, finishes, and resumes with the compacted history`, async () => {
  const agent = longSessionAgent();
  const server = await startModelServer([], { usageFromBody: true, contextWindow: WINDOW, respond: agent.respond });
  const { session, path } = recordedSession(server, longSettings);
  let cwd = "";
  try {
    cwd = session.currentSettings.cwd;
    const id = session.submit({ type: "user_input", items: [{ type: "text", text: `Write step-1.txt to step-${STEPS}.txt, then report.` }] });
    const events = await until(session, id, "task_complete");
    const done = events.at(-1)?.msg;
    assert.equal(done?.type === "task_complete" && done.last_agent_message, `All ${STEPS} files are written.`);
    assert.ok(!events.some((e) => e.msg.type === "error"), "no request overflowed");
    const compactions = events.filter((e) => e.msg.type === "context_compacted").length;
    assert.ok(compactions >= 3, `expected several compactions, got ${compactions}`);
    assert.equal(compactions, agent.summaries());
    for (let n = 1; n <= STEPS; n++) assert.ok(existsSync(join(cwd, `step-${n}.txt`)), `step-${n}.txt`);
    assert.match(readFileSync(join(cwd, `step-${STEPS}.txt`), "utf8"), new RegExp(`^step ${STEPS}:`));
    for (const req of server.requests) assert.ok(estimatedRequestTokens(req.rawBody) <= WINDOW);
    // After a compaction the model still sees the task, the plan and the files it touched last.
    const last = inputTexts(server.requests.at(-1)?.body.input);
    assert.ok(last.includes(`Write step-1.txt to step-${STEPS}.txt, then report.`));
    const state = last.find((t) => t.startsWith("<working_state>")) ?? "";
    assert.match(state, /\[in_progress\] write every step file/);
    assert.match(state, /- step-\d+\.txt/);
    assert.ok(last.some((t) => t.startsWith(COMPACTION_SUMMARY_PREFIX)));
    // Token counts after a compaction show the estimate of the new, smaller history.
    const sizes = counts(events).map((c) => c.info?.last_token_usage.total_tokens ?? 0);
    assert.ok(Math.max(...sizes) <= WINDOW);
    assert.deepEqual(server.violations, []);
  } finally {
    session.submit({ type: "shutdown" });
  }
  assert.equal(readLines(path).filter((l) => l.type === "compacted").length, agent.summaries());
  const thread = loadThread(path);
  const liveLast = server.requests.at(-1)?.body.input ?? [];
  server.push(turn(text("Resumed fine.")));
  const resumed = resumedSession(server, path, longSettings);
  try {
    await until(resumed, resumed.submit({ type: "user_input", items: [{ type: "text", text: "anything left?" }] }), "task_complete");
    const input = server.requests.at(-1)?.body.input ?? [];
    // The resumed request starts with the last live request's history (plus its final answer).
    assert.deepEqual(input.slice(0, liveLast.length), liveLast);
    assert.ok(thread.history.length < 200, `the compacted history is short: ${thread.history.length} items`);
    assert.ok(estimatedRequestTokens(server.requests.at(-1)?.rawBody ?? "") <= WINDOW);
    assert.deepEqual(server.violations, []);
  } finally {
    resumed.submit({ type: "shutdown" });
    await server.close();
  }
});

void test("a message bigger than the window: compaction keeps its head and tail, says so, and the turn completes", async () => {
  const server = await startModelServer([], {
    usageFromBody: true,
    contextWindow: WINDOW,
    respond: (req) => turn(text(isSummaryRequest(req) ? "Summary: the user pasted a huge log." : "I read the start and end of your log.")),
  });
  await runWith(server, longSettings, async (session) => {
    const huge = `LOG START ${"0123456789abcdef".repeat(10_000)} LOG END`;
    const events = await until(session, session.submit({ type: "user_input", items: [{ type: "text", text: huge }] }), "task_complete");
    assert.ok(events.some((e) => e.msg.type === "context_compacted"));
    assert.ok(events.some((e) => e.msg.type === "warning" && /too long to keep whole/.test(e.msg.message)));
    const done = events.at(-1)?.msg;
    assert.equal(done?.type === "task_complete" && done.last_agent_message, "I read the start and end of your log.");
    const kept = inputTexts(server.requests.at(-1)?.body.input).find((t) => t.startsWith("LOG START")) ?? "";
    assert.match(kept, /^LOG START [0-9a-f]+…\d+ tokens truncated…[0-9a-f]+ LOG END$/);
  });
});

void test("a context that cannot fit even after compaction: compaction is tried, then a context-window error and a full window", async () => {
  const server = await startModelServer([], { usageFromBody: true, contextWindow: WINDOW, respond: () => turn(text("unreachable")) });
  const settings = { ...longSettings, developerInstructions: "Rule. ".repeat(30_000) };
  await runWith(server, settings, async (session) => {
    const events = await until(session, session.submit({ type: "user_input", items: [{ type: "text", text: "hello" }] }), "task_complete");
    const error = events.find((e) => e.msg.type === "error")?.msg;
    assert.equal(error?.type === "error" && error.codex_error_info, "context_window_exceeded");
    // The summariser read a cut-down copy; the rebuilt history still did not fit, and the user was told.
    assert.equal(server.requests.length, 2);
    assert.ok(server.requests[0] && isSummaryRequest(server.requests[0]));
    assert.ok(events.some((e) => e.msg.type === "context_compacted"));
    assert.ok(events.some((e) => e.msg.type === "warning" && /did not fit the model's context window after compaction/.test(e.msg.message)));
    const full = counts(events).at(-1)?.info;
    assert.equal(full?.last_token_usage.total_tokens, full?.model_context_window);
    // The session stays usable.
    const again = await until(session, session.submit({ type: "thread_rollback", num_turns: 1 }), "thread_rolled_back");
    assert.ok(again.length > 0);
  });
});

async function runWith(server: ModelServer, overrides: Parameters<typeof recordedSession>[1], body: (session: ReturnType<typeof recordedSession>["session"]) => Promise<void>): Promise<void> {
  const { session } = recordedSession(server, overrides);
  try {
    await body(session);
    assert.deepEqual(server.violations.filter((v) => !v.includes("exceeds")), []);
  } finally {
    session.submit({ type: "shutdown" });
    await server.close();
  }
}

void test("exec: usage on turn.completed and 'tokens used', rate-limit headers accepted, automatic server-side compaction in a small window", async () => {
  const ws = makeWorkspace();
  let step = 0;
  const server = await startModelServer([], {
    usageFromBody: true,
    contextWindow: 20_000,
    respond: () => {
      step += 1;
      if (step > 80) return { outputs: [text("Finished.")], headers: { "x-codex-primary-used-percent": "42", "x-codex-plan-type": "plus" } };
      return turn(customCall("apply_patch", `*** Begin Patch\n*** Add File: f${step}.txt\n+${"x".repeat(900)}\n*** End Patch\n`, `call-${step}`));
    },
  });
  try {
    const args = ["-s", "danger-full-access", "-m", "gpt-5.1-codex", "-c", "model_context_window=20000"];
    const json = await exec(server, [...args, "--json", "fill the window"], { cwd: ws.dir, home: ws.home, timeoutMs: 60_000 });
    assert.equal(json.code, 0, json.stderr);
    const events = jsonLines(json.stdout);
    const usage = events.at(-1)?.usage as Record<string, number> | undefined;
    assert.equal(events.at(-1)?.type, "turn.completed");
    assert.ok((usage?.input_tokens ?? 0) > 20_000 && (usage?.output_tokens ?? 0) >= 81 * 20, JSON.stringify(usage));
    // The built-in OpenAI provider compacts server-side by default.
    assert.ok(server.compactions.length >= 1);
    for (const req of server.requests) assert.ok(estimatedRequestTokens(req.rawBody) <= 20_000);

    step = 0;
    const human = await exec(server, [...args, "-c", "features.remote_compaction=false", "fill it again"], { cwd: ws.dir, home: ws.home, timeoutMs: 60_000 });
    assert.equal(human.code, 0, human.stderr);
    assert.equal(human.stdout, "Finished.\n");
    assert.match(human.stderr, /context compacted/);
    assert.match(human.stderr, /tokens used\n[\d,]+/);
    assert.deepEqual(server.violations, []);
  } finally {
    await server.close();
  }
});

void test("a usage limit that was reached: its headers' rate limits are told before the error", async () => {
  const limited = errorTurn(
    429,
    { "x-codex-primary-used-percent": "100", "x-codex-primary-window-minutes": "300", "x-codex-primary-reset-after-seconds": "3600" },
    { error: { code: "usage_limit_reached", message: "You've hit your usage limit." } },
  );
  await withSession([limited], async (session) => {
    const events = await until(session, session.submit({ type: "user_input", items: [{ type: "text", text: "hi" }] }), "task_complete");
    const kinds = events.map((e) => e.msg.type);
    const limits = counts(events).at(-1)?.rate_limits;
    assert.equal(limits?.primary?.used_percent, 100);
    assert.equal(limits?.primary?.window_minutes, 300);
    assert.ok((limits?.primary?.resets_at ?? 0) > Date.now() / 1000);
    assert.ok(kinds.indexOf("token_count") < kinds.indexOf("error"));
    const error = events.find((e) => e.msg.type === "error")?.msg;
    assert.equal(error?.type === "error" && error.codex_error_info, "usage_limit_exceeded");
  });
});

void test("compact_prompt and experimental_compact_prompt_file replace our summary prompt; a missing file stops exec naming it", async () => {
  const ws = makeWorkspace();
  writeFileSync(join(ws.home, "pirate.md"), "Summarise it like a pirate.\n");
  const local = ["-c", "features.remote_compaction=false", "-c", "model_auto_compact_token_limit=200"];
  const server = await startModelServer([turn(text("SUMMARY 1")), turn(text("one")), turn(text("SUMMARY 2")), turn(text("two"))]);
  try {
    const inline = await exec(server, [...local, "-c", 'compact_prompt="Keep only the file names."', "hello"], { cwd: ws.dir, home: ws.home });
    assert.equal(inline.code, 0, inline.stderr);
    assert.equal(lastUserText(server.requests[0] as RecordedRequest), "Keep only the file names.");
    const fromFile = await exec(server, [...local, "-c", `experimental_compact_prompt_file=${JSON.stringify(join(ws.home, "pirate.md"))}`, "hello"], { cwd: ws.dir, home: ws.home });
    assert.equal(fromFile.code, 0, fromFile.stderr);
    assert.equal(lastUserText(server.requests[2] as RecordedRequest), "Summarise it like a pirate.\n");
    const missing = await exec(server, ["-c", 'experimental_compact_prompt_file="nowhere.md"', "hello"], { cwd: ws.dir, home: ws.home });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /experimental_compact_prompt_file: cannot read .*nowhere\.md/);
    assert.deepEqual(server.violations, []);
  } finally {
    await server.close();
  }
});
