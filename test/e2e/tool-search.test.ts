/**
 * What gpt-5.5 is offered, as the reference 0.169 offers it (ten tools, in its order), and
 * tool_search: an MCP server's tools deferred behind it (a hundred of them cost the request
 * almost nothing), the namespaces announced once, a search answered with the matching tools as
 * a tool_search_output, and a found tool called inside its namespace.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { exec, makeWorkspace, withServer } from "../support/cli.js";
import { text, turn, type JsonObject } from "../support/model-server.js";
import { STDIO_SERVER_PATH } from "../fixtures/mcp/stdio-server.js";

const REFERENCE_GPT_5_5_TOOLS = [
  "exec_command",
  "write_stdin",
  "request_user_input",
  "apply_patch",
  "view_image",
  "get_goal",
  "create_goal",
  "update_goal",
  "tool_search",
  "web_search",
];

const toolNames = (tools: JsonObject[] | undefined): string[] => (tools ?? []).map((t) => String(t.name ?? t.type));
const mcpConfig = (extra: number): string =>
  `[mcp_servers.fx]\ncommand = ${JSON.stringify(process.execPath)}\nargs = ${JSON.stringify([STDIO_SERVER_PATH, "--name", "fx", "--extra-tools", String(extra)])}\n`;

void test("gpt-5.5 is offered the reference's ten tools in its order, tool_search as the hosted client-run tool", async () => {
  const ws = makeWorkspace();
  await withServer([turn(text("ok"))], async (server) => {
    const r = await exec(server, ["-m", "gpt-5.5", "hi"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 0, r.stderr);
    const tools = server.requests[0]?.body.tools ?? [];
    assert.deepEqual(toolNames(tools), REFERENCE_GPT_5_5_TOOLS);
    const search = tools.find((t) => t.type === "tool_search");
    assert.deepEqual(Object.keys(search ?? {}), ["type", "execution", "description", "parameters"]);
    assert.equal(search?.execution, "client");
    assert.deepEqual((search?.parameters as JsonObject).required, ["query"]);
    // The collab tools wait behind tool_search, named in the first developer message, as the reference does.
    const developer = (server.requests[0]?.body.input ?? []).filter((i) => i.role === "developer");
    const parts = (developer[1]?.content as JsonObject[] | undefined) ?? [];
    assert.match(String(parts.at(-1)?.text), /^<tools>\nDeferred tool namespaces:\n- multi_agent_v1: .+\n<\/tools>$/);
    assert.equal(JSON.stringify(server.requests[0]?.body.input).split("Deferred tool namespaces").length - 1, 1);
  });
});

void test("a hundred MCP tools wait behind tool_search: announced once, found by a search, called in their namespace", async () => {
  const ws = makeWorkspace({ config: mcpConfig(100) });
  const script = [
    turn({ type: "tool_search_call", arguments: { query: "heater gadget", limit: 2 }, callId: "ts1" }),
    turn({ type: "function_call", name: "gadget_002", namespace: "mcp__fx", arguments: { level: 3 }, callId: "g1" }),
    turn(text("the heater is on")),
    turn(text("second turn")),
  ];
  await withServer(script, async (server) => {
    const r = await exec(server, ["-m", "gpt-5.5", "-s", "danger-full-access", "turn on a heater"], { cwd: ws.dir, home: ws.home, timeoutMs: 60_000 });
    assert.equal(r.code, 0, r.stderr);
    const [first, second, third] = server.requests;
    const names = toolNames(first?.body.tools);
    assert.ok(!names.some((n) => n.startsWith("mcp__fx__")), "the server's tools are not offered up front");
    assert.deepEqual(names.slice(0, 5), ["exec_command", "write_stdin", "list_mcp_resources", "list_mcp_resource_templates", "read_mcp_resource"]);
    assert.ok((first?.rawBody.length ?? 0) < 60_000, `the request stays small: ${first?.rawBody.length} bytes`);
    const input = JSON.stringify(first?.body.input);
    assert.match(input, /<tools>\\nDeferred tool namespaces:\\n- mcp__fx\\n- multi_agent_v1: [^\\]+\\n<\/tools>/, input.slice(0, 3000));

    const output = (second?.body.input ?? []).find((i) => i.type === "tool_search_output");
    assert.ok(output, "the search is answered");
    assert.deepEqual(Object.keys(output), ["type", "call_id", "status", "execution", "tools"]);
    const [ns] = output.tools as JsonObject[];
    assert.equal(ns?.type, "namespace");
    assert.equal(ns?.name, "mcp__fx");
    const found = ns?.tools as JsonObject[];
    assert.equal(found.length, 2);
    assert.ok(found.every((t) => /heater/.test(String(t.description))), JSON.stringify(found));
    assert.deepEqual(Object.keys(found[0] ?? {}), ["type", "name", "description", "strict", "defer_loading", "parameters"]);
    assert.equal(found[0]?.name, "gadget_002");

    const result = (third?.body.input ?? []).find((i) => i.type === "function_call_output" && i.call_id === "g1");
    assert.match(JSON.stringify(result?.output), /gadget_002 done/);
    // The call keeps its namespace when it is sent back.
    assert.ok((third?.body.input ?? []).some((i) => i.type === "function_call" && i.namespace === "mcp__fx" && i.name === "gadget_002"));
  });
});

void test("families without tool_search get MCP tools up front, as the reference does", async () => {
  const ws = makeWorkspace({ config: mcpConfig(3) });
  await withServer([turn(text("ok"))], async (server) => {
    const r = await exec(server, ["-m", "gpt-5.4", "hi"], { cwd: ws.dir, home: ws.home, timeoutMs: 60_000 });
    assert.equal(r.code, 0, r.stderr);
    const names = toolNames(server.requests[0]?.body.tools);
    assert.ok(!names.includes("tool_search"));
    assert.ok(names.includes("mcp__fx__gadget_000") && names.includes("mcp__fx__echo"));
  });
});

void test("a resumed thread resends its tool_search call and output as recorded", async () => {
  const ws = makeWorkspace({ config: mcpConfig(5) });
  const script = [turn({ type: "tool_search_call", arguments: { query: "lamp" }, callId: "ts9" }), turn(text("found it")), turn(text("again"))];
  await withServer(script, async (server) => {
    const first = await exec(server, ["--json", "-m", "gpt-5.5", "look"], { cwd: ws.dir, home: ws.home, timeoutMs: 60_000 });
    assert.equal(first.code, 0, first.stderr);
    const resumed = await exec(server, ["--json", "-m", "gpt-5.5", "resume", "--last", "more"], { cwd: ws.dir, home: ws.home, timeoutMs: 60_000 });
    assert.equal(resumed.code, 0, resumed.stderr);
    const items = server.requests[2]?.body.input ?? [];
    assert.ok(items.some((i) => i.type === "tool_search_call" && i.call_id === "ts9"));
    assert.ok(items.some((i) => i.type === "tool_search_output" && i.call_id === "ts9"));
    // Announced once in the whole thread, not again on resume.
    assert.equal(JSON.stringify(items).split("Deferred tool namespaces").length - 1, 1);
  });
});
