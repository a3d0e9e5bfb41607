/**
 * The Chat Completions wire end to end: the core drives a ChatClient against the scripted
 * server's `/chat/completions`, runs the tools the model calls, and sends the results back as
 * `tool` messages. Also: request retries (5xx) and a dropped stream retried by the turn loop.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ChatClient } from "../../src/model/chat-client.js";
import { builtinProviders, type ModelProvider } from "../../src/model/provider.js";
import type { Event } from "../../src/protocol/events.js";
import { customCall, errorTurn, fnCall, reasoning, text, turn, type JsonObject, type ModelServer } from "../support/model-server.js";
import { turnIdIn, type SessionOverrides, types, until, withSession, timed } from "../support/session.js";
import { makeWorkspace, runCli, withServer } from "../support/cli.js";

function chatSession(over: Partial<ModelProvider> & { streamMaxRetries?: number; model?: string } = {}) {
  const { streamMaxRetries = 0, model = "gpt-5.5", ...providerOver } = over;
  return (server: ModelServer): SessionOverrides => {
    const provider: ModelProvider = {
      ...builtinProviders(undefined).ollama!,
      baseUrl: server.url,
      requestMaxRetries: 0,
      ...providerOver,
    };
    return {
      client: new ChatClient(provider, { apiKey: "sk-test", originator: "codex_exec", userAgent: "test", env: {} }),
      streamMaxRetries,
      settings: { model, modelProviderId: "ollama" },
    };
  };
}

const cwdOf = (events: Event[]): string => {
  const configured = events.find((e) => e.msg.type === "session_configured")?.msg;
  assert.ok(configured?.type === "session_configured");
  return configured.cwd;
};

const messagesOf = (server: ModelServer, n: number): JsonObject[] => {
  const request = server.requests[n];
  assert.ok(request, `request #${n + 1} was made`);
  assert.equal(request.wire, "chat");
  return request.body.messages ?? [];
};

const PATCH = "*** Begin Patch\n*** Add File: note.txt\n+written over chat\n*** End Patch\n";

void test("a tool-using session on the chat wire: parallel exec calls, a freeform apply_patch, a final answer", async () => {
  await withSession(
    [
      turn(
        reasoning("The user wants two checks."),
        text("Checking two things."),
        fnCall("exec_command", { cmd: "echo hello-chat" }, "call_a"),
        fnCall("exec_command", { cmd: "echo second-call" }, "call_b"),
      ),
      turn(customCall("apply_patch", PATCH, "call_p")),
      turn(text("All done.")),
    ],
    async (session, server) => {
      const id = session.submit({ type: "user_input", items: [{ type: "text", text: "do the thing" }] });
      const events = await until(session, id, "task_complete");
      assert.deepEqual(timed(events.at(-1)?.msg), { type: "task_complete", turn_id: turnIdIn(events, id), last_agent_message: "All done." });
      assert.equal(server.requests.length, 3);

      // First request: one system message up front, tools as functions, usage asked for.
      const first = server.requests[0]!;
      assert.equal(first.path, "/v1/chat/completions");
      assert.equal(first.headers.authorization, "Bearer sk-test");
      assert.equal(first.body.model, "gpt-5.5");
      assert.equal(first.body.input, undefined);
      assert.deepEqual(first.body.stream_options, { include_usage: true });
      assert.equal(first.body.tool_choice, "auto");
      assert.equal(first.body.parallel_tool_calls, true);
      assert.equal(first.body.reasoning_effort, "medium");
      const tools = (first.body.tools ?? []) as { type: string; function: { name: string; parameters: JsonObject } }[];
      assert.ok(tools.every((t) => t.type === "function"));
      const patchTool = tools.find((t) => t.function.name === "apply_patch");
      assert.deepEqual(Object.keys((patchTool?.function.parameters.properties ?? {}) as JsonObject), ["input"]);
      const firstRoles = messagesOf(server, 0).map((m) => m.role);
      assert.deepEqual(firstRoles, ["system", "user", "user"]);
      assert.equal(messagesOf(server, 0).at(-1)?.content, "do the thing");

      // Second request: the text and both calls in one assistant message, each answered by a tool
      // message. The streamed reasoning was kept in history as an item but is not resent.
      const second = messagesOf(server, 1);
      assert.deepEqual(second.slice(0, 3), messagesOf(server, 0), "history is resent unchanged");
      assert.deepEqual(
        second.slice(3).map((m) => m.role),
        ["assistant", "tool", "tool"],
      );
      const asked = second[3]!;
      assert.equal(asked.content, "Checking two things.");
      assert.deepEqual(asked.tool_calls, [
        { id: "call_a", type: "function", function: { name: "exec_command", arguments: '{"cmd":"echo hello-chat"}' } },
        { id: "call_b", type: "function", function: { name: "exec_command", arguments: '{"cmd":"echo second-call"}' } },
      ]);
      assert.equal(second[4]?.tool_call_id, "call_a");
      assert.match(String(second[4]?.content), /hello-chat/);
      assert.equal(second[5]?.tool_call_id, "call_b");
      assert.match(String(second[5]?.content), /second-call/);

      // The freeform patch came back as a custom call, ran, and went out again as a function call with {input}.
      const applied = events.find((e) => e.msg.type === "patch_apply_end")?.msg;
      assert.ok(applied?.type === "patch_apply_end" && applied.success && applied.call_id === "call_p");
      assert.equal(readFileSync(join(cwdOf(events), "note.txt"), "utf8"), "written over chat\n");
      const third = messagesOf(server, 2);
      assert.deepEqual(third.slice(0, second.length), second);
      assert.deepEqual(
        third.slice(second.length).map((m) => m.role),
        ["assistant", "tool"],
      );
      const patchCall = third[second.length]!;
      assert.equal(patchCall.content, null);
      assert.deepEqual(patchCall.tool_calls, [
        { id: "call_p", type: "function", function: { name: "apply_patch", arguments: JSON.stringify({ input: PATCH }) } },
      ]);
      assert.equal(third[second.length + 1]?.tool_call_id, "call_p");

      // Usage from the final chunk reached the token count.
      const counts = events.filter((e) => e.msg.type === "token_count").map((e) => (e.msg.type === "token_count" ? e.msg.info : null));
      assert.equal(counts.length, 3);
      assert.deepEqual(counts.at(-1)?.last_token_usage, {
        input_tokens: 12,
        cached_input_tokens: 0,
        output_tokens: 7,
        reasoning_output_tokens: 0,
        total_tokens: 19,
      });
    },
    chatSession(),
  );
});

void test("a function-tool model (gpt-4.1) runs `shell` and a function apply_patch over chat", async () => {
  await withSession(
    [
      turn(fnCall("shell", { command: ["bash", "-lc", "echo from-shell"] }, "s1")),
      turn(fnCall("apply_patch", { input: PATCH }, "s2")),
      turn(text("ok")),
    ],
    async (session, server) => {
      const id = session.submit({ type: "user_input", items: [{ type: "text", text: "go" }] });
      const events = await until(session, id, "task_complete");
      assert.deepEqual(timed(events.at(-1)?.msg), { type: "task_complete", turn_id: turnIdIn(events, id), last_agent_message: "ok" });
      const first = server.requests[0]!.body;
      assert.equal(first.reasoning_effort, undefined);
      assert.equal(first.parallel_tool_calls, false);
      const last = messagesOf(server, 2);
      const outputs = last.filter((m) => m.role === "tool");
      assert.deepEqual(
        outputs.map((m) => m.tool_call_id),
        ["s1", "s2"],
      );
      assert.match(String(outputs[0]?.content), /from-shell/);
      assert.equal(readFileSync(join(cwdOf(events), "note.txt"), "utf8"), "written over chat\n");
    },
    chatSession({ model: "gpt-4.1" }),
  );
});

void test("a 500 is retried inside the client and the turn completes", async () => {
  await withSession(
    [errorTurn(500), turn(text("recovered"))],
    async (session, server) => {
      const id = session.submit({ type: "user_input", items: [{ type: "text", text: "hi" }] });
      const events = await until(session, id, "task_complete");
      assert.deepEqual(timed(events.at(-1)?.msg), { type: "task_complete", turn_id: turnIdIn(events, id), last_agent_message: "recovered" });
      assert.equal(server.requests.length, 2);
      assert.deepEqual(server.requests[1]?.body.messages, server.requests[0]?.body.messages);
      const retries = events.filter((e) => e.msg.type === "stream_error");
      assert.equal(retries.length, 1);
      assert.ok(!types(events, id).includes("error"));
    },
    chatSession({ requestMaxRetries: 1 }),
  );
});

void test("a stream that drops mid-answer is retried by the turn loop; nothing of the failed attempt enters history", async () => {
  await withSession(
    [{ ...turn(text("a partial answer that never finishes")), dropAfterEvents: 2 }, turn(text("complete")), turn(text("again"))],
    async (session, server) => {
      const id = session.submit({ type: "user_input", items: [{ type: "text", text: "hi" }] });
      const events = await until(session, id, "task_complete");
      assert.deepEqual(timed(events.at(-1)?.msg), { type: "task_complete", turn_id: turnIdIn(events, id), last_agent_message: "complete" });
      const retry = events.find((e) => e.msg.type === "stream_error")?.msg;
      assert.ok(retry?.type === "stream_error");
      assert.deepEqual(retry.codex_error_info, { response_stream_disconnected: { http_status_code: null } });
      assert.equal(server.requests.length, 2);

      const next = session.submit({ type: "user_input", items: [{ type: "text", text: "more" }] });
      await until(session, next, "task_complete");
      const history = messagesOf(server, 2).map((m) => `${String(m.role)}:${typeof m.content === "string" ? m.content : ""}`);
      assert.deepEqual(history.slice(-3), ["user:hi", "assistant:complete", "user:more"]);
    },
    chatSession({ streamMaxRetries: 1 }),
  );
});

void test("codex-ts exec talks to a [model_providers] entry with wire_api = \"chat\", sending its headers and query parameters", async () => {
  const ws = makeWorkspace({
    config: [
      'model_provider = "local"',
      "[model_providers.local]",
      'name = "Local server"',
      'env_key = "LOCAL_KEY"',
      'wire_api = "chat"',
      'query_params = { "api-version" = "2025-04-01" }',
      'http_headers = { "x-team" = "codex-ts" }',
      'env_http_headers = { "x-from-env" = "LOCAL_HEADER" }',
    ].join("\n"),
  });
  await withServer([turn(fnCall("shell", { command: ["echo", "from chat"] }, "c1")), turn(text("All done over chat."))], async (server) => {
    const r = await runCli(
      ["exec", "-m", "gpt-4.1", "-s", "danger-full-access", "-c", `model_providers.local.base_url="${server.url}"`, "run it"],
      { cwd: ws.dir, home: ws.home, env: { LOCAL_KEY: "sk-local", LOCAL_HEADER: "from-env" } },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "All done over chat.\n");
    const [first, second] = server.requests;
    assert.equal(first?.wire, "chat");
    assert.match(first?.path ?? "", /\/chat\/completions$/);
    assert.equal(first?.query, "api-version=2025-04-01");
    assert.equal(first?.headers.authorization, "Bearer sk-local");
    assert.equal(first?.headers["x-team"], "codex-ts");
    assert.equal(first?.headers["x-from-env"], "from-env");
    const tool = (second?.body.messages ?? []).find((m) => (m as { role?: string }).role === "tool") as { content?: string } | undefined;
    assert.match(tool?.content ?? "", /from chat/);
  });
});
