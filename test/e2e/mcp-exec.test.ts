/**
 * MCP servers through the agent: `codex-ts exec` with `[mcp_servers]` in config.toml against the
 * scripted model server. The stdio fixture (test/fixtures/mcp) and
 * @modelcontextprotocol/server-everything run as real child processes; each test checks what
 * the model was offered and sent back, what the user sees (JSONL items, stderr), what the
 * rollout keeps, and that exec exits (so no server outlived it).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fnCall, text, turn, type JsonObject, type ModelServer } from "../support/model-server.js";
import { exec, jsonLines, makeWorkspace, withServer } from "../support/cli.js";
import { readLines, responseItems, rolloutFileOf, threadIdOf } from "../support/rollout.js";
import { turnIdIn, until, withSession, untilAsked, askedRequest, requestsIn } from "../support/session.js";
import { STDIO_SERVER_PATH, stdioFixtureServer } from "../fixtures/mcp/stdio-server.js";
import { FX_ECHO_TOOL_SPEC, FX_QUALIFIED_TOOL_NAMES, TINY_PNG_BASE64 } from "../fixtures/mcp/fixture-server.js";

const RESOURCE_TOOLS = ["list_mcp_resources", "list_mcp_resource_templates", "read_mcp_resource"];
const MISSING_BINARY = "/nonexistent/mcp-server-binary";

/** A `[mcp_servers.<name>]` table; values written as JSON, which TOML reads the same for these. */
function serverToml(name: string, command: string, args: string[], extra = ""): string {
  return `[mcp_servers.${name}]\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}\n${extra}\n`;
}

const fixtureToml = (name = "fx"): string => serverToml(name, process.execPath, [STDIO_SERVER_PATH, "--name", name]);

/** server-everything's entry point, run with this Node. */
function everythingBin(): string {
  const require = createRequire(import.meta.url);
  const pkgPath = require.resolve("@modelcontextprotocol/server-everything/package.json");
  const pkg = JSON.parse(readFileSync(pkgPath, "utf8")) as { bin: Record<string, string> };
  return join(dirname(pkgPath), pkg.bin["mcp-server-everything"] ?? "dist/index.js");
}

function toolNames(server: ModelServer, request = 0): string[] {
  return (server.requests[request]?.body.tools ?? []).map((t) => String(t.name ?? t.type));
}

/** The function_call_output for `callId` in request `request`'s input. */
function outputOf(server: ModelServer, request: number, callId: string): unknown {
  const item = (server.requests[request]?.body.input ?? []).find((i: JsonObject) => i.type === "function_call_output" && i.call_id === callId);
  assert.ok(item, `no output for ${callId} in request ${request}`);
  return item.output;
}

void test("exec offers a server's tools (resource tools after the command tools, server tools last), runs a call, and reports it as an mcp_tool_call item", async () => {
  const ws = makeWorkspace({ config: fixtureToml() });
  await withServer([turn(fnCall("mcp__fx__echo", { text: "hi" }, "call_1")), turn(text("Echoed."))], async (server) => {
    // gpt-5.4 has no tool_search, so the server's tools are offered up front (gpt-5.5 defers them: tool-search.test.ts).
    const r = await exec(server, ["--json", "-m", "gpt-5.4", "echo hi"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 0, r.stderr);
    const goals = ["get_goal", "create_goal", "update_goal"];
    assert.deepEqual(toolNames(server), ["exec_command", "write_stdin", ...RESOURCE_TOOLS, "request_user_input", "apply_patch", "view_image", "multi_agent_v1", ...goals, "web_search", ...FX_QUALIFIED_TOOL_NAMES]);
    const echo = server.requests[0]?.body.tools?.find((t) => t.name === "mcp__fx__echo");
    assert.deepEqual(echo, FX_ECHO_TOOL_SPEC);
    assert.equal(outputOf(server, 1, "call_1"), '[{"type":"text","text":"echo: hi"}]');
    // The second request offers the same tools, byte for byte.
    assert.deepEqual(server.requests[1]?.body.tools, server.requests[0]?.body.tools);

    const events = jsonLines(r.stdout);
    // Start-up progress has no JSONL counterpart.
    assert.deepEqual(
      events.map((e) => e.type),
      ["thread.started", "turn.started", "item.started", "item.completed", "item.completed", "turn.completed"],
    );
    const call = { id: "item_0", type: "mcp_tool_call", server: "fx", tool: "echo", arguments: { text: "hi" } };
    assert.deepEqual(events[2], { type: "item.started", item: { ...call, result: null, error: null, status: "in_progress" } });
    assert.deepEqual(events[3], {
      type: "item.completed",
      item: { ...call, result: { content: [{ type: "text", text: "echo: hi" }], structured_content: null }, error: null, status: "completed" },
    });
    assert.deepEqual(events[4], { type: "item.completed", item: { id: "item_1", type: "agent_message", text: "Echoed." } });

    // The rollout keeps the finished call (as the reference's limited mode does), not the chatter.
    const lines = readLines(rolloutFileOf(ws.home, threadIdOf(events)));
    const kinds = lines.filter((l) => l.type === "event_msg").map((l) => String(l.payload.type));
    assert.ok(kinds.includes("mcp_tool_call_end"), kinds.join(", "));
    for (const kind of ["mcp_tool_call_begin", "mcp_startup_update", "mcp_startup_complete"]) assert.ok(!kinds.includes(kind), kind);
    const end = lines.find((l) => l.type === "event_msg" && l.payload.type === "mcp_tool_call_end")?.payload;
    assert.deepEqual(end?.invocation, { server: "fx", tool: "echo", arguments: { text: "hi" } });
    assert.deepEqual(end?.result, { Ok: { content: [{ type: "text", text: "echo: hi" }] } });
  });
});

void test("structured content goes back as its JSON, images as input_image parts; stderr shows start-up and each call", async () => {
  const ws = makeWorkspace({ config: fixtureToml() });
  const image = [
    { type: "input_text", text: "a tiny image" },
    { type: "input_image", image_url: `data:image/png;base64,${TINY_PNG_BASE64}`, detail: "high" },
  ];
  await withServer(
    [
      turn(fnCall("mcp__fx__add", { a: 2, b: 3 }, "call_add")),
      turn(fnCall("mcp__fx__image", {}, "call_img")),
      turn(fnCall("mcp__fx__fail", {}, "call_fail")),
      turn(text("Done.")),
    ],
    async (server) => {
      const r = await exec(server, ["add and look"], { cwd: ws.dir, home: ws.home });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, "Done.\n");
      assert.equal(outputOf(server, 1, "call_add"), '{"sum":5}');
      assert.deepEqual(outputOf(server, 2, "call_img"), image);
      assert.equal(outputOf(server, 3, "call_fail"), '[{"type":"text","text":"it broke"}]');

      const err = r.stderr;
      assert.match(err, /^mcp: fx starting$/m);
      assert.match(err, /^mcp: fx ready$/m);
      assert.match(err, /^mcp startup: ready: fx$/m);
      assert.match(err, /^tool fx\.add\(\{"a":2,"b":3\}\)$/m);
      assert.match(err, /^fx\.add\(\{"a":2,"b":3\}\) success in \d+(ms|\.\d\ds):\n\{\n {2}"content": \[\n/m);
      assert.match(err, /^ {2}"structuredContent": \{\n {4}"sum": 5\n {2}\}$/m);
      assert.match(err, /^fx\.image\(\{\}\) success in /m);
      assert.match(err, /^fx\.fail\(\{\}\) failed in \S+:\n\{\n/m);
      assert.ok(err.indexOf("mcp: fx ready") < err.indexOf("tool fx.add"), err);

      // The images survive a resume: the recorded output is resent as parts.
      const id = /^session id: (\S+)$/m.exec(err)?.[1] ?? "";
      const recorded = responseItems(rolloutFileOf(ws.home, id)).find((i) => i.call_id === "call_img" && i.type === "function_call_output");
      assert.deepEqual(recorded?.output, image);
      server.push(turn(text("Still here.")));
      const resumed = await exec(server, ["--json", "resume", id, "again"], { cwd: ws.dir, home: ws.home });
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.deepEqual(outputOf(server, 4, "call_img"), image);
    },
  );
});

void test("a 20 MB tool result is refused as too large, and the server stays connected for the next call", async () => {
  const ws = makeWorkspace({ config: fixtureToml() });
  await withServer(
    [
      turn(fnCall("mcp__fx__flood", { bytes: 20 * 1024 * 1024 }, "call_flood")),
      turn(fnCall("mcp__fx__echo", { text: "still there" }, "call_echo")),
      turn(text("Done.")),
    ],
    async (server) => {
      const r = await exec(server, ["flood"], { cwd: ws.dir, home: ws.home, timeoutMs: 60_000 });
      assert.equal(r.code, 0, r.stderr);
      const flood = String(outputOf(server, 1, "call_flood"));
      assert.match(flood, /result too large: a message of 20\.0 MiB from the server, over the 10 MiB codex-ts reads from an MCP server/);
      assert.doesNotMatch(flood, /Connection closed/);
      assert.equal(outputOf(server, 2, "call_echo"), '[{"type":"text","text":"echo: still there"}]');
    },
  );
});

void test("an optional server that fails to start does not stop the turn; stderr says why", async () => {
  const ws = makeWorkspace({ config: serverToml("broken", MISSING_BINARY, []) + fixtureToml() });
  await withServer([turn(fnCall("mcp__fx__echo", { text: "x" }, "call_1")), turn(text("ok"))], async (server) => {
    const r = await exec(server, ["go"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(
      r.stderr.includes(
        `mcp: broken failed: MCP client for \`broken\` failed to start: MCP startup failed: failed to spawn \`${MISSING_BINARY}\`: No such file or directory (os error 2)`,
      ),
      r.stderr,
    );
    assert.match(r.stderr, /^mcp startup: ready: fx; failed: broken$/m);
    assert.equal(outputOf(server, 1, "call_1"), '[{"type":"text","text":"echo: x"}]');
    assert.ok(!toolNames(server).some((n) => n.startsWith("mcp__broken")));
  });
});

void test("a required server that fails to start fails exec before any model request", async () => {
  const ws = makeWorkspace({ config: serverToml("broken", MISSING_BINARY, [], "required = true") + fixtureToml() });
  await withServer([turn(text("never"))], async (server) => {
    for (const json of [false, true]) {
      const r = await exec(server, [...(json ? ["--json"] : []), "go"], { cwd: ws.dir, home: ws.home });
      assert.equal(r.code, 1, r.stderr);
      assert.ok(
        r.stderr.includes(`required MCP servers failed to initialize: broken: failed to spawn \`${MISSING_BINARY}\`: No such file or directory (os error 2)`),
        r.stderr,
      );
      assert.ok(!jsonLines(r.stdout).some((e) => e.type === "turn.started"), r.stdout);
      assert.equal(server.requests.length, 0);
    }
  });
});

void test("server-everything through exec: one of its tools and list_mcp_resources", async () => {
  const ws = makeWorkspace({ config: serverToml("everything", process.execPath, [everythingBin(), "stdio"]) });
  await withServer(
    [
      turn(fnCall("mcp__everything__echo", { message: "hi" }, "call_echo"), fnCall("list_mcp_resources", { server: "everything" }, "call_list")),
      turn(text("Listed.")),
    ],
    async (server) => {
      const r = await exec(server, ["--json", "-m", "gpt-5.4", "use everything"], { cwd: ws.dir, home: ws.home, timeoutMs: 30_000 });
      assert.equal(r.code, 0, r.stderr);
      const names = toolNames(server);
      for (const name of ["mcp__everything__echo", "mcp__everything__get-sum", ...RESOURCE_TOOLS]) assert.ok(names.includes(name), name);
      const mcpNames = names.filter((n) => n.startsWith("mcp__"));
      assert.deepEqual(mcpNames, [...mcpNames].sort(), "server tools sorted");
      assert.deepEqual(names.slice(-mcpNames.length), mcpNames, "server tools last");

      assert.equal(outputOf(server, 1, "call_echo"), '[{"type":"text","text":"Echo: hi"}]');
      const listed = JSON.parse(String(outputOf(server, 1, "call_list"))) as { server: string; resources: Array<{ server: string; uri: string }> };
      assert.equal(listed.server, "everything");
      assert.ok(listed.resources.length > 0 && listed.resources.every((res) => res.server === "everything"));

      const completed = jsonLines(r.stdout).filter((e) => e.type === "item.completed").map((e) => e.item as Record<string, unknown>);
      const byTool = new Map(completed.filter((i) => i.type === "mcp_tool_call").map((i) => [i.tool, i]));
      assert.deepEqual(byTool.get("echo"), {
        id: byTool.get("echo")?.id,
        type: "mcp_tool_call",
        server: "everything",
        tool: "echo",
        arguments: { message: "hi" },
        result: { content: [{ type: "text", text: "Echo: hi" }], structured_content: null },
        error: null,
        status: "completed",
      });
      const list = byTool.get("list_mcp_resources");
      assert.equal(list?.server, "everything");
      assert.equal(list?.status, "completed");
    },
  );
});

void test("a session: the turn waits for a slow server, an interrupt ends the wait, shutdown ends the servers", async () => {
  const slow = stdioFixtureServer(["--name", "slow", "--delay-init", "20000"]);
  await withSession(
    [turn(text("unused"))],
    async (session, server) => {
      const id = session.submit({ type: "user_input", items: [{ type: "text", text: "hi" }] });
      const seen = await until(session, id, "user_message");
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(server.requests.length, 0, "no request before the servers settle");
      const interrupt = session.submit({ type: "interrupt" });
      await until(session, id, "turn_aborted", seen);
      const started = Date.now();
      const shutdown = session.submit({ type: "shutdown" });
      const rest = await until(session, shutdown, "shutdown_complete", seen);
      assert.ok(Date.now() - started < 5_000, "shutdown cancels the start-up");
      const startup = rest.filter((e) => e.id === "" && e.msg.type.startsWith("mcp_")).map((e) => e.msg);
      assert.deepEqual(startup, [
        { type: "mcp_startup_update", server: "slow", status: { state: "starting" } },
        { type: "mcp_startup_complete", ready: [], failed: [], cancelled: ["slow"] },
      ]);
      assert.equal(server.requests.length, 0);
      assert.ok(interrupt !== id);
    },
    { mcpServers: { slow } },
  );
});

void test("an MCP tool annotated as destructive waits for the user's answer; a read-only one runs unasked", async () => {
  const fx = stdioFixtureServer(["--name", "fx"]);
  await withSession(
    [turn(fnCall("mcp__fx__delete_everything", {}, "d"), fnCall("mcp__fx__peek", {}, "p")), turn(text("ok"))],
    async (session, server) => {
      const id = session.submit({ type: "user_turn", items: [{ type: "text", text: "go" }], approval_policy: "on-request" });
      const asked = await untilAsked(session, id, "mcp_tool_call_approval_request");
      // Its own kind of request: the server, the tool and the arguments, not a pseudo-command.
      assert.deepEqual(askedRequest(asked), {
        type: "mcp_tool_call_approval_request",
        call_id: "d",
        turn_id: turnIdIn(asked, id),
        server: "fx",
        tool: "delete_everything",
        arguments: {},
        question: 'Allow the fx MCP server to run tool "delete_everything"?',
      });
      assert.equal(requestsIn(asked).filter((r) => r.type === "exec_approval_request").length, 0);
      session.submit({ type: "mcp_tool_call_approval", id: "d", decision: "denied" });
      const events = await until(session, id, "task_complete", asked);
      assert.equal(requestsIn(events).filter((r) => r.type === "mcp_tool_call_approval_request").length, 1, "the read-only tool is not asked about");
      const outputs = new Map(
        (server.requests[1]?.body.input ?? [])
          .filter((i) => i.type === "function_call_output")
          .map((i) => [(i as { call_id: string }).call_id, String((i as { output: unknown }).output)]),
      );
      assert.match(outputs.get("d") ?? "", /user rejected MCP tool call/);
      assert.doesNotMatch(outputs.get("p") ?? "", /rejected/);
    },
    { mcpServers: { fx } },
  );
});

void test("a server's elicitation reaches the user as an elicitation_request; the answer, with the form's defaults, goes back", async () => {
  const fx = stdioFixtureServer(["--name", "fx"]);
  await withSession(
    [turn(fnCall("mcp__fx__ask", {}, "q1")), turn(text("noted"))],
    async (session, server) => {
      const id = session.submit({ type: "user_turn", items: [{ type: "text", text: "ask me" }], approval_policy: "on-request" });
      const asked = await untilAsked(session, id, "elicitation_request");
      const request = askedRequest(asked);
      assert.ok(request?.type === "elicitation_request");
      assert.equal(request.server_name, "fx");
      assert.equal(request.message, "Which colour?");
      assert.deepEqual(request.requested_schema, { type: "object", properties: { colour: { type: "string", default: "blue" }, size: { type: "number" } } });
      // Accepted with only `size` filled in: the declared default fills `colour` (SEP-1034).
      session.submit({ type: "resolve_elicitation", server_name: "fx", request_id: request.id, decision: "accept", content: { size: 3 } });
      await until(session, id, "task_complete", asked);
      assert.deepEqual(serverAnswer(server), { action: "accept", content: { size: 3, colour: "blue" } });
    },
    { mcpServers: { fx } },
  );
});

void test("in exec nobody can answer an elicitation: it is declined at once and the turn goes on", async () => {
  const ws = makeWorkspace({ config: fixtureToml() });
  await withServer([turn(fnCall("mcp__fx__ask", {}, "q1")), turn(text("fine"))], async (server) => {
    const run = await exec(server, ["ask"], { cwd: ws.dir, home: ws.home });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(serverAnswer(server), { action: "decline" });
  });
});

/** What the fixture's `ask` tool reported the user answered (from the output the model got back). */
void test("an interrupt cancels a server's elicitation like any other question, and the session goes on", async () => {
  const fx = stdioFixtureServer(["--name", "fx"]);
  await withSession(
    [turn(fnCall("mcp__fx__ask", {}, "q1")), turn(text("again"))],
    async (session) => {
      const id = session.submit({ type: "user_turn", items: [{ type: "text", text: "ask me" }], approval_policy: "on-request" });
      const asked = await untilAsked(session, id, "elicitation_request");
      const question = asked.at(-1)?.msg;
      assert.ok(question?.type === "question_asked");
      session.submit({ type: "interrupt" });
      const aborted = await until(session, id, "turn_aborted", asked);
      assert.ok(aborted.some((e) => e.msg.type === "question_resolved" && e.msg.key === question.key && e.msg.outcome === "cancelled"));
      const next = session.submit({ type: "user_turn", items: [{ type: "text", text: "go on" }] });
      const after = await until(session, next, "task_complete");
      const done = after.at(-1)?.msg;
      assert.equal(done?.type === "task_complete" && done.last_agent_message, "again");
    },
    { mcpServers: { fx } },
  );
});

function serverAnswer(server: ModelServer): unknown {
  const output = (server.requests[1]?.body.input ?? []).find((i) => i.type === "function_call_output") as { output?: unknown } | undefined;
  const [first] = JSON.parse(String(output?.output)) as Array<{ text: string }>;
  return JSON.parse((first?.text ?? "").replace(/^answer: /, ""));
}
