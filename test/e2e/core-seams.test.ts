/**
 * The core's contract with front ends beyond one reader and one turn: several subscribers, the
 * thread manager (start, resume with the conversation to redraw, close, the no-key error), and
 * the user's own shell commands as a task of their own.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Event, EventMsg } from "../../src/protocol/events.js";
import { loadConfig } from "../../src/config/load-config.js";
import { ThreadManager, ThreadStartError } from "../../src/core/thread-manager.js";
import { callOutputText, fnCall, startModelServer, text, turn } from "../support/model-server.js";
import { turnIdIn, until, withSession } from "../support/session.js";

void test("every subscriber sees every event from the moment it subscribed, in order, on its own", async () => {
  await withSession([turn(text("one")), turn(text("two"))], async (session) => {
    const early = session.subscribe();
    const first = session.submit({ type: "user_input", items: [{ type: "text", text: "a" }] });
    await until(session, first, "task_complete");
    const late = session.subscribe();
    const second = session.submit({ type: "user_input", items: [{ type: "text", text: "b" }] });
    const main = await until(session, second, "task_complete");
    const read = async (sub: ReturnType<typeof session.subscribe>, stopAt: string): Promise<Event[]> => {
      const seen: Event[] = [];
      for (let e = await sub.next(); e; e = await sub.next()) {
        seen.push(e);
        if (e.id === stopAt && e.msg.type === "task_complete") break;
      }
      return seen;
    };
    const earlyEvents = await read(early, second);
    const lateEvents = await read(late, second);
    assert.ok(earlyEvents.some((e) => e.id === first), "the early reader saw the first turn");
    assert.ok(!lateEvents.some((e) => e.id === first), "the late reader starts at its subscription");
    // Both see the second turn exactly as the first reader does.
    const secondTurn = (events: Event[]): Event[] => events.filter((e) => e.id === second);
    assert.deepEqual(secondTurn(earlyEvents), secondTurn(main));
    assert.deepEqual(secondTurn(lateEvents), secondTurn(main));
    late.unsubscribe();
    early.unsubscribe();
  });
});

void test("!cmd: the user's command runs as its own task, streams exec events marked user_shell, and the model sees it next turn", async () => {
  await withSession([turn(text("I saw it."))], async (session, server) => {
    const id = session.submit({ type: "run_user_shell_command", command: "echo from-the-user" });
    const events = await until(session, id, "task_complete");
    const own = events.filter((e) => e.id === id).map((e) => e.msg);
    assert.deepEqual(
      own.map((m) => m.type).filter((t) => t !== "exec_command_output_delta"),
      ["task_started", "exec_command_begin", "exec_command_end", "task_complete"],
    );
    const end = own.find((m): m is Extract<EventMsg, { type: "exec_command_end" }> => m.type === "exec_command_end");
    assert.equal(end?.source, "user_shell");
    assert.equal(end?.exit_code, 0);
    assert.match(end?.aggregated_output ?? "", /from-the-user/);
    assert.equal(server.requests.length, 0, "no model request for the user's command");

    const next = session.submit({ type: "user_input", items: [{ type: "text", text: "what did I run?" }] });
    await until(session, next, "task_complete");
    const input = JSON.stringify(server.requests[0]?.body.input);
    assert.match(input, /<user_shell_command>\\n<command>\\necho from-the-user\\n<\/command>\\n<result>\\n[^"]*from-the-user/);
  });
});

void test("the thread manager starts a recorded thread, resumes it with initial_messages to redraw, and closes threads", async () => {
  const home = mkdtempSync(join(tmpdir(), "codex-ts-threads-"));
  const cwd = mkdtempSync(join(tmpdir(), "codex-ts-threads-cwd-"));
  const server = await startModelServer([
    turn(fnCall("exec_command", { cmd: "echo listed" }, "c1")),
    turn(
      fnCall("update_plan", { plan: [{ step: "look", status: "completed" }, { step: "report", status: "in_progress" }] }, "p1"),
    ),
    turn(text("All done.")),
    turn(text("Again.")),
  ]);
  const env = { CODEX_HOME: home, OPENAI_API_KEY: "sk-test" };
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, "config.toml"), `openai_base_url = "${server.url}"\n`);
  const manager = new ThreadManager({ env, source: "exec", originator: "codex_exec", userAgentProduct: "codex_exec", readCodexApiKey: true });
  const config = loadConfig({ cwd, overrides: ['sandbox_mode="danger-full-access"'], env, approvalPolicy: "never" });
  try {
    const started = await manager.startThread({ config });
    await manager.waitUntilReady(started);
    assert.equal(manager.getThread(started.threadId), started.session);
    const id = started.session.submit({ type: "user_input", items: [{ type: "text", text: "list things" }] });
    await until(started.session, id, "task_complete");
    await manager.closeThread(started.threadId);
    assert.equal(manager.getThread(started.threadId), undefined);

    const resumed = await manager.startThread({ config, target: { kind: "resume", sessionId: started.threadId, last: false, all: false } });
    assert.equal(resumed.threadId, started.threadId);
    const configured = await resumed.session.nextEvent();
    assert.ok(configured?.msg.type === "session_configured");
    // What was shown, in order; gpt-5.5 is not offered update_plan, so its call showed nothing and redraws nothing.
    assert.equal(callOutputText(server, "p1"), "unsupported call: update_plan");
    const redraw = (configured.msg.initial_messages ?? []).filter((m) => m.type !== "token_count");
    assert.deepEqual(
      redraw.map((m) => m.type),
      ["task_started", "user_message", "exec_command_end", "agent_message", "task_complete"],
    );
    const command = redraw[2];
    assert.ok(command?.type === "exec_command_end");
    assert.equal(command.exit_code, 0);
    assert.match(command.aggregated_output, /listed/);
    assert.ok(command.duration.secs > 0 || command.duration.nanos > 0, "the command's real duration");
    const next = resumed.session.submit({ type: "user_input", items: [{ type: "text", text: "again" }] });
    const events = await until(resumed.session, next, "task_complete");
    assert.ok(turnIdIn(events, next).length > 0);
    await manager.closeAll();
  } finally {
    await server.close();
  }
});

void test("a thread needs an API key: one start error, worded the same for every front end", async () => {
  const home = mkdtempSync(join(tmpdir(), "codex-ts-threads-"));
  const env = { CODEX_HOME: home };
  const config = loadConfig({ cwd: tmpdir(), overrides: [], env });
  for (const readCodexApiKey of [true, false]) {
    const manager = new ThreadManager({ env, source: "mcp", originator: "x", userAgentProduct: "x", readCodexApiKey });
    await assert.rejects(manager.startThread({ config }), (err: unknown) => {
      assert.ok(err instanceof ThreadStartError);
      assert.equal(err.kind, "no_api_key");
      assert.equal(
        err.message,
        `No API key found for provider 'openai'. Set ${readCodexApiKey ? "CODEX_API_KEY or " : ""}OPENAI_API_KEY, sign in with \`codex-ts login\`, or run \`codex-ts login --with-api-key\`.`,
      );
      return true;
    });
  }
});

void test("the core never writes to the terminal: a prompt-history failure is a warning event", async () => {
  const notADir = join(mkdtempSync(join(tmpdir(), "codex-ts-seams-")), "file");
  writeFileSync(notADir, "");
  await withSession(
    [],
    async (session) => {
      session.submit({ type: "add_to_history", text: "remember me" });
      for (;;) {
        const event = await session.nextEvent();
        if (event?.msg.type === "warning") {
          assert.match(event.msg.message, /^prompt history: /);
          break;
        }
      }
    },
    { promptHistory: { codexHome: notADir, settings: { persistence: "save-all" } } },
  );
});
