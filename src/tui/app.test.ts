import { before, test } from "node:test";
import assert from "node:assert/strict";
import { App, type AppHost } from "./app.js";
import { InlineRenderer } from "./inline-renderer.js";
import { createTheme, stripAnsi } from "./parts/theme.js";
import { markdownTheme } from "./cells.js";
import type { ExecApprovalDecision } from "../protocol/policy.js";
import type { Op } from "../protocol/ops.js";
import { loadMarkdown } from "./pi-tui.js";
import type { EventMsg, QuestionRequest } from "../protocol/events.js";

// The runner loads the Markdown component after the first frame; these tests render with it.
before(loadMarkdown);

const theme = createTheme(0);

/** An app on a recording screen, with a host that records the ops it submits. */
function harness(opts: { mcpServers?: string[]; columns?: number } = {}): { app: App; ops: Op[]; written: () => string; raw: () => string; quit: () => boolean } {
  const ops: Op[] = [];
  let out = "";
  let quitted = false;
  const copied: string[] = [];
  const host: AppHost = {
    submit: (op) => (ops.push(op), String(ops.length)),
    gitDiff: () => Promise.resolve([]),
    newThread: () => Promise.resolve(),
    resumePicker: () => Promise.resolve(),
    forkThread: () => Promise.resolve(),
    renameThread: () => undefined,
    externalEdit: (t) => Promise.resolve(t),
    notify: () => undefined,
    quit: () => void (quitted = true),
    copyToClipboard: (text) => void copied.push(text),
    saveModel: () => Promise.resolve("/home/config.toml"),
    statusFacts: () => ({ provider: "OpenAI (openai)", agentsFiles: ["/repo/AGENTS.md"] }),
    subAgents: () => ({ agents: [], watching: null }),
    watchAgent: () => undefined,
  };
  const renderer = new InlineRenderer({ write: (d) => void (out += d), columns: opts.columns ?? 60, rows: 30 });
  const app = new App(host, {
    theme,
    style: { theme, markdown: markdownTheme(theme), diff: (p) => [p] },
    renderer,
    rows: () => 30,
    version: "0.0.0",
    hideReasoning: false,
    mcpServers: opts.mcpServers ?? [],
  });
  return { app, ops, written: () => stripAnsi(out), raw: () => out, quit: () => quitted };
}

const configured: EventMsg = {
  type: "session_configured",
  session_id: "0199a213-81c0-7800-8aa1-bbab2a035a53",
  model: "gpt-5.5",
  model_provider_id: "openai",
  approval_policy: "on-request",
  sandbox_policy: { type: "read-only" },
  cwd: "/repo",
  reasoning_effort: null,
  history_log_id: 1,
  history_entry_count: 0,
  rollout_path: "/home/sessions/x.jsonl",
};

/** A question as the core asks it: the request inside a question_asked, keyed by its call id. */
function asked(request: Extract<QuestionRequest, { call_id: string }>): EventMsg {
  return { type: "question_asked", key: request.call_id, request };
}

const decided = (key: string, decision: ExecApprovalDecision): Op => ({ type: "answer_question", key, answer: { type: "decision", decision } });

function feed(app: App, ...msgs: EventMsg[]): void {
  for (const msg of msgs) app.onEvent({ id: "1", msg });
  app.renderNow();
}

function type(app: App, text: string): void {
  for (const ch of text) app.handleInput(ch);
}

/** A chunk of command output as the event carries it. */
const b64 = (text: string): string => Buffer.from(text, "utf8").toString("base64");

const live = (app: App): string => app.liveLines().map((l) => stripAnsi(l)).join("\n");

void test("events become cells: the user message, the streamed answer, a command and the turn's end", () => {
  const { app, written } = harness();
  feed(app, configured, { type: "task_started", turn_id: "t", model_context_window: 1000 }, { type: "user_message", message: "hi", images: null });
  feed(app, { type: "agent_message_delta", delta: "Hello" });
  assert.match(live(app), /• Hello/);
  assert.match(live(app), /Working/);
  feed(app, { type: "exec_command_begin", call_id: "c", command: ["ls"], cwd: "/repo", parsed_cmd: [] }, { type: "exec_command_output_delta", call_id: "c", stream: "stdout", chunk: b64("file.txt\n") });
  assert.match(live(app), /Running ls\n {2}│ file\.txt/);
  feed(app, { type: "agent_message", message: "Hello there" }, { type: "task_complete", turn_id: "t", last_agent_message: "Hello there" });
  assert.match(written(), /› hi[\s\S]*• Hello there/);
  assert.doesNotMatch(live(app), /Working/);
});

void test("Enter sends a turn; during a turn it steers; !cmd runs a shell command", () => {
  const { app, ops } = harness();
  feed(app, configured);
  ops.length = 0;
  type(app, "first");
  app.handleInput("\r");
  assert.deepEqual(ops, [{ type: "add_to_history", text: "first" }, { type: "user_turn", items: [{ type: "text", text: "first" }] }]);
  feed(app, { type: "task_started", turn_id: "t", model_context_window: null });
  ops.length = 0;
  type(app, "more");
  app.handleInput("\r");
  assert.deepEqual(ops.at(-1), { type: "user_input", items: [{ type: "text", text: "more" }] });
  feed(app, { type: "task_complete", turn_id: "t", last_agent_message: null });
  type(app, "!ls -la");
  app.handleInput("\r");
  assert.deepEqual(ops.at(-1), { type: "run_user_shell_command", command: "ls -la" });
});

void test("Esc interrupts a running turn; Ctrl+C clears, interrupts, then quits on a second press", () => {
  const { app, ops, quit } = harness();
  feed(app, configured, { type: "task_started", turn_id: "t", model_context_window: null });
  app.handleInput("\x1b");
  assert.deepEqual(ops.at(-1), { type: "interrupt" });
  feed(app, { type: "turn_aborted", turn_id: "t", reason: "interrupted" });
  type(app, "draft");
  app.handleInput("\x03");
  assert.equal(app.composer.text, "");
  app.handleInput("\x03");
  assert.equal(quit(), false);
  assert.match(live(app), /Ctrl\+C again to quit/);
  app.handleInput("\x03");
  assert.equal(quit(), true);
});

/** Esc Esc, then the message `down` rows below the newest, then the answer key. */
async function backtrack(app: App, down: number, key: string): Promise<void> {
  app.handleInput("\x1b");
  app.handleInput("\x1b");
  await new Promise((r) => setImmediate(r));
  for (let i = 0; i < down; i++) app.handleInput("\x1b[B");
  app.handleInput("\r");
  await new Promise((r) => setImmediate(r));
  assert.match(live(app), /Restore what to how it was before this message\?[\s\S]*Conversation only[\s\S]*Code only[\s\S]*Both/);
  app.handleInput(key);
  await new Promise((r) => setImmediate(r));
}

const threeMessages: EventMsg[] = [{ type: "user_message", message: "one", images: null }, { type: "user_message", message: "two", images: null }, { type: "user_message", message: "three", images: null }];

void test("Esc Esc backtracks: the picked message comes back and thread_rollback drops the turns after it", async () => {
  const { app, ops } = harness();
  feed(app, configured, ...threeMessages);
  ops.length = 0;
  app.handleInput("\x1b");
  app.handleInput("\x1b");
  await new Promise((r) => setImmediate(r));
  assert.match(live(app), /Go back to an earlier message[\s\S]*three[\s\S]*two[\s\S]*one/);
  app.handleInput("\x1b");
  await new Promise((r) => setImmediate(r));
  await backtrack(app, 1, "c");
  assert.deepEqual(ops, [{ type: "thread_rollback", num_turns: 2 }]);
  assert.equal(app.composer.text, "two");
  feed(app, { type: "thread_rolled_back", num_turns: 2 });
  type(app, " again");
  app.handleInput("\r");
  assert.deepEqual(ops.at(-1), { type: "user_turn", items: [{ type: "text", text: "two again" }] });
});

void test("Esc Esc can put back the files too: code only keeps the conversation, both brings the message back once rolled back", async () => {
  const { app, ops, written } = harness();
  feed(app, configured, ...threeMessages);
  ops.length = 0;
  await backtrack(app, 0, "f");
  assert.deepEqual(ops, [{ type: "thread_rollback", num_turns: 1, restore: "code" }]);
  assert.equal(app.composer.text, "");
  app.onEvent({ id: "1", msg: { type: "undo_completed", success: true, message: "Restored 2 files.", action: "rollback", restored: ["a.txt", "b/c.txt"], snapshots: ["t3"] } });
  app.renderNow();
  assert.match(written(), /Files restored[\s\S]*Restored 2 files\.[\s\S]*a\.txt[\s\S]*b\/c\.txt/);

  ops.length = 0;
  await backtrack(app, 2, "b");
  assert.deepEqual(ops, [{ type: "thread_rollback", num_turns: 3, restore: "both" }]);
  assert.equal(app.composer.text, "", "the message comes back only once the conversation is rolled back");
  app.onEvent({ id: "1", msg: { type: "thread_rolled_back", num_turns: 3 } });
  assert.equal(app.composer.text, "one");
});

void test("/undo and /redo send their ops; files changed by hand are named and overwritten only after a yes", async () => {
  const { app, ops, written } = harness();
  feed(app, configured);
  ops.length = 0;
  type(app, "/undo");
  app.handleInput("\r");
  assert.deepEqual(ops, [{ type: "undo" }]);
  app.onEvent({ id: "1", msg: { type: "undo_completed", success: false, message: "changed", action: "undo", conflicts: ["a.txt"], restored: [] } });
  await new Promise((r) => setImmediate(r));
  assert.match(live(app), /Changed since the turn: a\.txt\. Overwrite it/);
  app.handleInput("y");
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(ops.at(-1), { type: "undo", overwrite: ["a.txt"] });
  app.onEvent({ id: "2", msg: { type: "undo_completed", success: true, message: "Restored 1 file.", action: "undo", restored: ["a.txt"], snapshots: ["t"] } });
  app.renderNow();
  assert.match(written(), /Undo[\s\S]*Restored 1 file\.[\s\S]*a\.txt/);

  type(app, "/redo");
  app.handleInput("\r");
  assert.deepEqual(ops.at(-1), { type: "redo" });
  app.onEvent({ id: "3", msg: { type: "undo_completed", success: false, message: "changed", action: "redo", conflicts: ["a.txt"], restored: [] } });
  await new Promise((r) => setImmediate(r));
  app.handleInput("n");
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(ops.at(-1), { type: "redo" }, "no second op after a no");
  app.renderNow();
  assert.match(written(), /Nothing was restored/);
});

void test("a resumed thread redraws its undos as they were shown; a question about changed files is not asked again", () => {
  const { app, written } = harness();
  feed(app, {
    ...configured,
    initial_messages: [
      { type: "undo_completed", success: false, message: "changed", action: "undo", conflicts: ["a.txt"], restored: [] },
      { type: "undo_completed", success: true, message: "Restored 2 files.", action: "undo", restored: ["a.txt", "b.txt"], snapshots: ["t"] },
    ],
  } as EventMsg);
  assert.match(written(), /Undo\s+Restored 2 files\.\s+a\.txt\s+b\.txt/);
  assert.doesNotMatch(written() + live(app), /Overwrite/);
});

void test("a command approval overlay answers with the key pressed, the proposed prefix included", () => {
  const { app, ops } = harness();
  feed(
    app,
    configured,
    asked({
      type: "exec_approval_request",
      call_id: "c1",
      turn_id: "t",
      command: ["npm", "test"],
      cwd: "/repo",
      reason: "run the tests",
      proposed_execpolicy_amendment: ["npm", "test"],
      parsed_cmd: [],
    }),
  );
  const overlay = live(app);
  assert.match(overlay, /Run this command\?[\s\S]*\$ npm test[\s\S]*in \/repo[\s\S]*reason: run the tests/);
  assert.match(overlay, /always allow `npm test` commands \(p\)/);
  app.handleInput("p");
  assert.deepEqual(ops.at(-1), decided("c1", { approved_execpolicy_amendment: { proposed_execpolicy_amendment: ["npm", "test"] } }));
  feed(app, asked({ type: "exec_approval_request", call_id: "c2", turn_id: "t", command: ["rm", "x"], cwd: "/repo", parsed_cmd: [] }));
  assert.doesNotMatch(live(app), /\(p\)/);
  app.handleInput("\x1b");
  assert.deepEqual(ops.at(-1), decided("c2", "abort"));
});

void test("a question the core closes (an interrupt) closes its overlay; the composer is back", () => {
  const { app, ops } = harness();
  feed(app, configured, asked({ type: "exec_approval_request", call_id: "c1", turn_id: "t", command: ["ls"], cwd: "/repo", parsed_cmd: [] }));
  assert.match(live(app), /Run this command\?/);
  const before = ops.length;
  feed(app, { type: "question_resolved", key: "c1", outcome: "cancelled" });
  assert.doesNotMatch(live(app), /Run this command\?/);
  assert.match(live(app), /Enter to send/);
  assert.equal(ops.length, before, "nothing is answered for a closed question");
});

void test("request_user_input: pick an option per question, the answers go back together", () => {
  const { app, ops } = harness();
  feed(
    app,
    configured,
    asked({
      type: "request_user_input",
      call_id: "q",
      turn_id: "t",
      questions: [
        { id: "db", header: "Database", question: "Which one?", isOther: true, isSecret: false, options: [{ label: "sqlite", description: "file" }, { label: "postgres", description: "server" }] },
        { id: "name", header: "Name", question: "Project name?", isOther: false, isSecret: false },
      ],
    }),
  );
  assert.match(live(app), /Database: Which one\?[\s\S]*sqlite[\s\S]*postgres[\s\S]*Other/);
  app.handleInput("\x1b[B");
  app.handleInput("\r");
  type(app, "demo");
  app.handleInput("\r");
  assert.deepEqual(ops.at(-1), { type: "answer_question", key: "q", answer: { type: "user_input", response: { answers: { db: { answers: ["postgres"] }, name: { answers: ["demo"] } } } } });
});

void test("a resumed thread's initial messages are redrawn; hidden reasoning stays hidden", () => {
  const { app, written } = harness();
  feed(app, {
    ...configured,
    initial_messages: [
      { type: "user_message", message: "earlier question", images: null },
      { type: "agent_reasoning", text: "thinking about it" },
      { type: "agent_message", message: "earlier answer" },
    ],
  } as EventMsg);
  assert.match(written(), /› earlier question[\s\S]*thinking about it[\s\S]*• earlier answer/);
});

/** Types a slash command and sends it, then lets its picker open. */
async function slash(app: App, command: string): Promise<void> {
  app.composer.setText(command);
  app.handleInput("\r");
  await new Promise((r) => setImmediate(r));
}

void test("/review picks a target and submits the review op; /model picks model and effort", async () => {
  const { app, ops } = harness();
  feed(app, configured);
  await slash(app, "/review");
  assert.match(live(app), /Review[\s\S]*Uncommitted changes[\s\S]*Against a base branch[\s\S]*A commit[\s\S]*Custom instructions/);
  app.handleInput("\r");
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(ops.at(-1), { type: "review", review_request: { target: { type: "uncommittedChanges" } } });

  await slash(app, "/model");
  // The models come from the session (the account's list here).
  assert.deepEqual(ops.at(-1), { type: "list_models" });
  feed(app, { type: "list_models_response", source: "account", models: [{ slug: "gpt-5.5", is_default: true }, { slug: "gpt-5.4-mini", is_default: false }] });
  await new Promise((r) => setImmediate(r));
  assert.match(live(app), /Model[\s\S]*gpt-5\.5\s+current[\s\S]*gpt-5\.4-mini/);
  app.handleInput("\r");
  await new Promise((r) => setImmediate(r));
  for (const ch of "high") app.handleInput(ch);
  app.handleInput("\r");
  await new Promise((r) => setImmediate(r));
  assert.match(live(app), /Use gpt-5\.5 \(high\) from the next turn on[\s\S]*make it the default[\s\S]*for this session only \(s\)/);
  app.handleInput("s");
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(ops.at(-1), { type: "override_turn_context", model: "gpt-5.5", effort: "high" });
  // The header follows what the core says it will run with, not what was asked.
  assert.doesNotMatch(app.statusLines().join("\n"), /effort high/);
  feed(app, { type: "settings_changed", model: "gpt-5.5", reasoning_effort: "high", approval_policy: "on-request", sandbox_policy: { type: "read-only" }, cwd: "/repo" });
  assert.match(app.statusLines().join("\n"), /model:\s+gpt-5\.5 \(effort high\)/);
});

void test("a slash command that cannot run during a turn says so; an unknown one is named", async () => {
  const { app, ops, written } = harness();
  feed(app, configured, { type: "task_started", turn_id: "t", model_context_window: null });
  const before = ops.length;
  await slash(app, "/model");
  await slash(app, "/nonsense");
  app.renderNow();
  assert.equal(ops.length, before);
  assert.match(written(), /\/model cannot run while a turn is running[\s\S]*Unknown command \/nonsense/);
});

void test("patch and MCP tool call questions show the diff and the arguments, and answer by key", () => {
  const { app, ops } = harness();
  feed(
    app,
    configured,
    asked({
      type: "apply_patch_approval_request",
      call_id: "p1",
      turn_id: "t",
      changes: { "/repo/a.txt": { type: "update", unified_diff: "@@ -1 +1 @@\n-old\n+new\n", move_path: null } },
      reason: "fix the typo",
    }),
  );
  assert.match(live(app), /Apply these changes to 1 file\?\n {2}a\.txt\n[\s\S]*\/repo\/a\.txt[\s\S]*reason: fix the typo/);
  app.handleInput("a");
  assert.deepEqual(ops.at(-1), decided("p1", "approved_for_session"));
  feed(
    app,
    asked({
      type: "mcp_tool_call_approval_request",
      call_id: "m1",
      turn_id: "t",
      server: "docs",
      tool: "delete_page",
      arguments: { page: "intro" },
      question: 'Allow the docs MCP server to run tool "delete_page"?',
    }),
  );
  assert.match(live(app), /Allow the docs MCP server[\s\S]*docs\.delete_page[\s\S]*"page": "intro"/);
  // n does what its label says: stop, so the user can say what to do instead.
  app.handleInput("n");
  assert.deepEqual(ops.at(-1), decided("m1", "abort"));
});

void test("a web search is live until its end event, then a cell with what it searched; a resumed session redraws it", () => {
  const { app, written } = harness();
  feed(app, configured, { type: "task_started", turn_id: "t", model_context_window: 1000 }, { type: "web_search_begin", call_id: "ws_1" });
  assert.match(live(app), /• Searching the web…/);
  feed(app, { type: "web_search_end", call_id: "ws_1", query: "node 24 release", action: { type: "search", query: "node 24 release" } });
  assert.doesNotMatch(live(app), /Searching the web/);
  assert.match(written(), /• Searched node 24 release/);
  const resumed = harness();
  feed(resumed.app, { ...configured, initial_messages: [{ type: "web_search_end", call_id: "ws_1", query: "", action: { type: "open_page", url: "https://example.com/notes" } }] } as EventMsg);
  assert.match(resumed.written(), /• Opened https:\/\/example\.com\/notes/);
});

void test("/compact shows progress, then the compaction as a cell; /status has the rate limits", async () => {
  const { app, ops, written } = harness();
  const usage = { input_tokens: 900, cached_input_tokens: 0, output_tokens: 100, reasoning_output_tokens: 0, total_tokens: 1000 };
  feed(app, configured, {
    type: "token_count",
    info: { total_token_usage: usage, last_token_usage: usage, model_context_window: 10_000 },
    rate_limits: { limit_id: "codex", limit_name: null, primary: { used_percent: 42, window_minutes: 300, resets_at: null }, secondary: null, credits: null, plan_type: null },
  });
  type(app, "/compact keep the plan");
  app.handleInput("\r");
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(ops.at(-1), { type: "compact", instructions: "keep the plan" });
  feed(app, { type: "task_started", turn_id: "c", model_context_window: 10_000 });
  assert.match(live(app), /Compacting/);
  feed(app, { type: "context_compacted" }, { type: "task_complete", turn_id: "c", last_agent_message: null });
  // The figures the status line showed before.
  assert.match(written(), /90% context left · 1\.0K tokens used\r?\n[\s\S]*• Context compacted \(before: 90% context left · 1\.0K tokens\s+used\): the conversation/);
  assert.doesNotMatch(written(), /Worked for/, "a compaction is not a turn of work");
  assert.doesNotMatch(live(app), /Compacting/);
  type(app, "/status");
  app.handleInput("\r");
  await new Promise((r) => setImmediate(r));
  app.renderNow();
  assert.match(written(), /5h limit: +\[████░░░░░░\] 42% used/);
});

void test("an MCP server that needs a login: the failure comes with the offer; /mcp login NAME runs it; /mcp lists tools and auth", async () => {
  const { app, ops, written } = harness({ mcpServers: ["remote", "local"], columns: 120 });
  const needsLogin = "The remote MCP server is not logged in. Run `codex-ts mcp login remote`.";
  feed(
    app,
    configured,
    { type: "mcp_startup_update", server: "local", status: { state: "ready" } },
    { type: "mcp_startup_update", server: "remote", status: { state: "failed", error: needsLogin } },
    { type: "mcp_startup_complete", ready: ["local"], failed: [{ server: "remote", error: needsLogin }], cancelled: [] },
  );
  assert.match(written(), /MCP server remote did not start: The remote MCP server is not logged in[\s\S]*Type \/mcp login remote to sign in from here; the server then starts again in this session/);
  type(app, "/mcp login remote");
  app.handleInput("\r");
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(ops.at(-1), { type: "mcp_sign_in", server: "remote" }, "the session is asked to sign in");
  feed(app, { type: "mcp_sign_in_update", server: "remote", message: "Open https://auth.example/authorize to sign in" }, { type: "mcp_sign_in_complete", server: "remote", success: true });
  assert.match(written(), /Sign in to remote[\s\S]*Open https:\/\/auth\.example\/authorize[\s\S]*Signed in to remote/);
  type(app, "/mcp");
  app.handleInput("\r");
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(ops.at(-1), { type: "list_mcp_tools" });
  feed(app, {
    type: "mcp_list_tools_response",
    tools: { mcp__local__echo: { name: "echo", inputSchema: {} }, mcp__local__add: { name: "add", inputSchema: {} } },
    resources: {},
    resource_templates: {},
    auth_statuses: { remote: "not_logged_in", local: "unsupported" },
  });
  assert.match(written(), /remote: failed · auth: not logged in \(\/mcp login remote\)\r?\n\s+The remote MCP server is not logged in\./);
  assert.match(written(), /local: ready · auth: no auth\r?\n\s+tools: add, echo/);
});

void test("a message steered into a streaming answer joins the conversation after the answer, which is shown once", () => {
  const { app, written } = harness();
  feed(app, configured, { type: "task_started", turn_id: "t", model_context_window: null }, { type: "user_message", message: "start", images: null });
  feed(app, { type: "agent_message_delta", delta: "First paragraph.\n\nSecond half-writ" });
  feed(app, { type: "user_message", message: "also this", images: null });
  assert.match(live(app), /Second half-writ[\s\S]*› also this\n\s+↳ the agent reads this when the answer above ends/);
  feed(app, { type: "agent_message_delta", delta: "ten paragraph." }, { type: "agent_message", message: "First paragraph.\n\nSecond half-written paragraph." });
  feed(app, { type: "task_complete", turn_id: "t", last_agent_message: null });
  const out = written();
  assert.equal(out.split("First paragraph.").length, 2);
  assert.equal(out.split("Second half-written paragraph.").length, 2);
  assert.match(out, /Second half-written paragraph\.[\s\S]*› also this[\s\S]*Worked for/);
});

/** The question_resolved event the core sends for an answer_question op. */
function resolvedBy(op: Op | undefined): EventMsg {
  assert.ok(op?.type === "answer_question");
  return { type: "question_resolved", key: op.key, outcome: "answered", answer: op.answer };
}

void test("an answered question is kept as a decision cell; a question taller than the inline share goes full screen", () => {
  const { app, ops, written, raw } = harness();
  feed(app, configured, asked({ type: "exec_approval_request", call_id: "c1", turn_id: "t", command: ["make"], cwd: "/repo", parsed_cmd: [] }));
  app.handleInput("y");
  assert.deepEqual(ops.at(-1), decided("c1", "approved"));
  // The core closes the question with the answer; the decision joins the conversation then.
  feed(app, resolvedBy(ops.at(-1)));
  app.renderNow();
  assert.match(written(), /✔ You approved running `make` this time/);
  // 60 lines of arguments do not fit the inline share of 30 rows: drawn on the alternate screen.
  const before = raw().length;
  feed(app, asked({ type: "mcp_tool_call_approval_request", call_id: "m", turn_id: "t", server: "s", tool: "t", arguments: Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`k${i}`, i])), question: "Call it?" }));
  assert.ok(raw().slice(before).includes("\x1b[?1049h"), "not full screen");
  assert.match(stripAnsi(raw().slice(before)), /Call it\?[\s\S]*lines 1–\d+ of \d+[\s\S]*1\. Yes, call it \(y\)/);
  app.handleInput("n");
  feed(app, resolvedBy(ops.at(-1)));
  app.renderNow();
  assert.ok(raw().slice(before).includes("\x1b[?1049l"), "the conversation did not come back");
  assert.match(written(), /✗ You canceled the call to `s\.t`/);
});
