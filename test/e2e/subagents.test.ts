/**
 * Sub-agents through the real CLI (`exec --json`) and the scripted model: a parent that spawns a
 * child, waits for its answer, closes it and finishes, checked against what Codex 0.169 sends and
 * writes (test/fixtures/subagents: its namespace tool without descriptions, its call / output
 * pairs, its exec items and session_meta), and the ways that can go wrong.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { exec, jsonLines, makeWorkspace, type CliResult, type Workspace } from "../support/cli.js";
import { SPAWN_WAIT_CLOSE, collabCall, isSubAgentRequest, outputsIn, spawnedIn, startAgentServer, userTextsIn, type AgentScript } from "../support/agent-script.js";
import { readLines, rolloutFileOf, rolloutFiles } from "../support/rollout.js";
import type { JsonObject, ModelServer, RecordedRequest } from "../support/model-server.js";
import { text, turn } from "../support/model-server.js";
import { command, hookDir, writeHooksJson } from "../support/hooks.js";

const FIXTURES = fileURLToPath(new URL("../../../test/fixtures/subagents/", import.meta.url));
const fixture = <T>(name: string): T => JSON.parse(readFileSync(FIXTURES + name, "utf8")) as T;

interface Run {
  server: ModelServer;
  result: CliResult;
  events: Array<Record<string, unknown>>;
  ws: Workspace;
}

/**
 * `exec --json PROMPT` against a parent-and-children script; the server's violations must stay
 * empty. The model is gpt-5.4, which gets the collab namespace up front, as the family of the
 * reference's capture did (gpt-5.5 finds it through tool_search: see its own test).
 */
async function runScript(script: AgentScript, prompt: string, options: { config?: string; args?: string[]; ws?: Workspace } = {}): Promise<Run> {
  const server = await startAgentServer(script);
  const ws = options.ws ?? makeWorkspace(options.config !== undefined ? { config: options.config } : {});
  try {
    const args = options.args?.[0] === "resume" || options.args?.includes("-m") ? (options.args ?? []) : ["-m", "gpt-5.4", ...(options.args ?? [])];
    const result = await exec(server, ["--json", ...args, prompt], { cwd: ws.dir, home: ws.home });
    assert.deepEqual(server.violations, []);
    return { server, result, events: jsonLines(result.stdout), ws };
  } finally {
    await server.close();
  }
}

const parentRequests = (server: ModelServer): RecordedRequest[] => server.requests.filter((r) => !isSubAgentRequest(r));
const childRequests = (server: ModelServer): RecordedRequest[] => server.requests.filter(isSubAgentRequest);
const collabItems = (events: Array<Record<string, unknown>>): JsonObject[] =>
  events.flatMap((e) => (e.type === "item.completed" && (e.item as JsonObject).type === "collab_tool_call" ? [e.item as JsonObject] : []));

/** Thread ids replaced by their order of appearance, item ids by theirs: what two runs can share. */
function normalized(lines: readonly unknown[]): unknown[] {
  const ids = new Map<string, string>();
  const items = new Map<string, string>();
  return JSON.parse(
    JSON.stringify(lines)
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => ids.get(id) ?? (ids.set(id, `thread_${ids.size}`), `thread_${ids.size - 1}`))
      .replace(/"item_\d+"/g, (id) => items.get(id) ?? (items.set(id, `"item_${items.size}"`), `"item_${items.size - 1}"`)),
  ) as unknown[];
}

function withoutDescriptions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDescriptions);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => k !== "description").map(([k, v]) => [k, withoutDescriptions(v)]));
}

void test("a parent spawns a child, waits for its answer, closes it and finishes, as the reference does", async () => {
  const { server, result, events, ws } = await runScript(SPAWN_WAIT_CLOSE, "go");
  assert.equal(result.code, 0, result.stderr);

  // exec --json: the reference's collab_tool_call items, started then completed, in order.
  const reference = readFileSync(FIXTURES + "collab-exec.jsonl", "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
  const withoutUsage = (lines: Array<Record<string, unknown>>): unknown[] => normalized(lines.map((l) => (l.type === "turn.completed" ? { type: l.type } : l)));
  assert.deepEqual(withoutUsage(events), withoutUsage(reference));

  // The namespace tool as the reference sends it (our descriptions aside), to the parent only.
  const shape = fixture<{ namespace_tool: unknown; exchanges: unknown[][] }>("multi-agent-v1-shape.json");
  const [first] = parentRequests(server);
  const offered = first?.body.tools?.find((t) => t.name === "multi_agent_v1");
  assert.deepEqual(withoutDescriptions(offered), shape.namespace_tool);
  const [childRequest] = childRequests(server);
  assert.ok(childRequest);
  assert.equal(childRequest.body.tools?.some((t) => t.name === "multi_agent_v1"), false, "a child at the maximum depth is not offered the tools");

  // The calls and outputs, re-sent to the model as the reference re-sends them.
  const last = parentRequests(server).at(-1);
  const input = last?.body.input ?? [];
  const exchanges = shape.exchanges.map((pair) => {
    const call = pair[0] as JsonObject;
    const sent = input.find((i) => i.type === "function_call" && i.call_id === call.call_id);
    const output = input.find((i) => i.type === "function_call_output" && i.call_id === call.call_id);
    return [sent, output];
  });
  const comparable = (pairs: unknown[][]): unknown => normalized(pairs.map(([call, output]) => [pick(call, ["type", "name", "namespace", "arguments", "call_id"]), pick(output, ["type", "call_id", "output"])]));
  const theirs = comparable(shape.exchanges) as unknown[][];
  const ours = comparable(exchanges) as unknown[][];
  // The nickname differs (names are drawn from each program's own list).
  const nickname = (pairs: unknown[][]): unknown => JSON.parse(JSON.stringify(pairs).replace(/\\"nickname\\":\\"[^\\"]+\\"/, '\\"nickname\\":\\"?\\"')) as unknown;
  assert.deepEqual(nickname(ours), nickname(theirs));

  // The child's answer came back as a notification too, after the wait's output.
  const notice = userTextsIn(last as RecordedRequest).find((t) => t.startsWith("<subagent_notification>"));
  const childId = spawnedIn(last as RecordedRequest)[0] ?? "";
  assert.equal(notice, `<subagent_notification>\n{"agent_path":"${childId}","status":{"completed":"tests/a.test.ts and tests/b.test.ts"}}\n</subagent_notification>`);

  // The child's requests say whose they are.
  const parentId = String(events[0]?.thread_id);
  assert.equal(childRequest.headers["session-id"], parentId);
  assert.equal(childRequest.headers["thread-id"], childId);
  assert.equal(childRequest.headers["x-openai-subagent"], "collab_spawn");

  // Two rollouts; the child's session_meta names its parent as the reference's does.
  assert.equal(rolloutFiles(ws.home).length, 2);
  const meta = readLines(rolloutFileOf(ws.home, childId))[0]?.payload ?? {};
  const theirsMeta = fixture<{ session_meta: JsonObject[] }>("subagent-session-meta.json").session_meta[1] ?? {};
  const subagentKeys = ["session_id", "parent_thread_id", "source", "thread_source", "agent_nickname", "multi_agent_version"];
  assert.deepEqual(normalized([pick(meta, subagentKeys)]), normalized([{ ...pick(theirsMeta, subagentKeys), agent_nickname: meta.agent_nickname, source: withNickname(theirsMeta.source, meta.agent_nickname) }]));
  const shared = Object.keys(meta).filter((k) => k in theirsMeta);
  assert.deepEqual(shared, Object.keys(theirsMeta).filter((k) => k in meta), "the keys both write come in the reference's order");
  assert.equal(meta.id, childId);
  const childLines = readLines(rolloutFileOf(ws.home, childId));
  assert.ok(childLines.some((l) => l.type === "event_msg" && l.payload.type === "agent_message" && l.payload.message === "tests/a.test.ts and tests/b.test.ts"));
  const parentLines = readLines(rolloutFileOf(ws.home, parentId));
  assert.deepEqual(
    parentLines.filter((l) => l.type === "event_msg" && String(l.payload.type).startsWith("collab_")).map((l) => l.payload.type),
    ["collab_agent_spawn_end", "collab_waiting_end", "collab_close_end"],
  );
});

function pick(value: unknown, keys: string[]): JsonObject {
  const source = (value ?? {}) as JsonObject;
  return Object.fromEntries(keys.filter((k) => k in source).map((k) => [k, source[k]]));
}

function withNickname(source: unknown, nickname: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(source)) as { subagent: { thread_spawn: JsonObject } };
  copy.subagent.thread_spawn.agent_nickname = nickname;
  return copy;
}

void test("wrong targets, bad arguments and the thread limit are answered in the reference's words, and the parent goes on", async () => {
  const unknown = "01a21798-0000-7000-8000-000000000000";
  const calls: Array<[string, unknown, string]> = [
    ["wait_agent", { targets: [unknown] }, '{"status":{"01a21798-0000-7000-8000-000000000000":"not_found"},"timed_out":false}'],
    ["wait_agent", { targets: ["nope"] }, "invalid agent id nope: not a UUID"],
    ["wait_agent", { targets: [] }, "agent ids must be non-empty"],
    ["send_input", { target: unknown, message: "hi" }, `agent with id ${unknown} not found`],
    ["close_agent", { target: unknown }, `agent with id ${unknown} not found`],
    ["resume_agent", { id: unknown }, `agent with id ${unknown} not found`],
    ["spawn_agent", { message: "  " }, "Empty message can't be sent to an agent"],
    ["spawn_agent", {}, "Provide one of: message or items"],
    ["spawn_agent", { message: "a", items: [{ type: "text", text: "b" }] }, "Provide either message or items, but not both"],
    ["spawn_agent", { items: [] }, "Items can't be empty"],
    ["spawn_agent", { message: "x", agent_type: "nosuchrole" }, "unknown agent_type 'nosuchrole'"],
    ["spawn_agent", { message: "x", reasoning_effort: "bogus" }, "Reasoning effort `bogus` is not supported for model `gpt-5.4`. Supported reasoning efforts: none, minimal, low, medium, high, xhigh"],
    ["spawn_agent", { message: "first" }, ""],
    ["spawn_agent", { message: "second" }, "collab spawn failed: agent thread limit reached"],
  ];
  const script: AgentScript = {
    parent: [...calls.map(([name, args], i) => turn(collabCall(name, args, `call_${i}`))), turn(text("done anyway"))],
    child: () => turn(text("ok")),
  };
  const { server, result, events } = await runScript(script, "go", { config: "[agents]\nmax_threads = 1\n" });
  assert.equal(result.code, 0, result.stderr);
  const last = parentRequests(server).at(-1) as RecordedRequest;
  const outputs = outputsIn(last);
  calls.forEach(([name, , expected], i) => {
    if (expected !== "") assert.equal(outputs.get(`call_${i}`), expected, `${name} #${i}`);
  });
  // A call to a collab tool outside its namespace is unknown, as it is to the reference.
  assert.equal(events.at(-1)?.type, "turn.completed");
  const failed = collabItems(events).filter((item) => item.status === "failed").map((item) => item.tool);
  assert.deepEqual(failed, ["wait", "send_input", "close_agent", "wait", "spawn_agent", "spawn_agent", "spawn_agent"]);
});

void test("a call without the namespace is an unsupported call", async () => {
  const script: AgentScript = {
    parent: [turn({ type: "function_call", name: "wait_agent", arguments: { targets: ["x"] }, callId: "plain" }), turn(text("ok"))],
    child: () => turn(text("unused")),
  };
  const { server } = await runScript(script, "go");
  assert.equal(outputsIn(parentRequests(server).at(-1) as RecordedRequest).get("plain"), "unsupported call: wait_agent");
});

void test("a child whose turn fails reports errored with the reason; the parent reads it and finishes", async () => {
  const script: AgentScript = {
    parent: [
      turn(collabCall("spawn_agent", { message: "break" }, "s")),
      (r) => turn(collabCall("wait_agent", { targets: spawnedIn(r) }, "w")),
      turn(text("the helper failed; I did it myself")),
    ],
    // Refused outright (no retries), as a crash of the child's turn would end it.
    child: () => ({ status: 400, errorBody: { error: { message: "scripted refusal", type: "invalid_request_error" } } }),
  };
  const { server, result, events } = await runScript(script, "go");
  assert.equal(result.code, 0, result.stderr);
  const last = parentRequests(server).at(-1) as RecordedRequest;
  const id = spawnedIn(last)[0] ?? "";
  const reason = "The model provider rejected the request (HTTP 400): scripted refusal";
  assert.equal(outputsIn(last).get("w"), JSON.stringify({ status: { [id]: { errored: reason } }, timed_out: false }));
  const wait = collabItems(events).find((i) => i.tool === "wait");
  assert.deepEqual(wait?.agents_states, { [id]: { status: "errored", message: reason } });
  assert.equal(wait?.status, "failed");
  assert.equal(events.at(-1)?.type, "turn.completed");
});

void test("max_depth: a child may spawn only while below it, and the grandchild at the limit is not offered the tools", async () => {
  const script: AgentScript = {
    parent: [turn(collabCall("spawn_agent", { message: "delegate further" }, "s")), (r) => turn(collabCall("wait_agent", { targets: spawnedIn(r) }, "w")), turn(text("done"))],
    child: (task, request) => {
      if (task !== "delegate further") return turn(text("grandchild here"));
      const spawned = spawnedIn(request);
      if (spawned.length === 0) return turn(collabCall("spawn_agent", { message: "leaf task" }, "gs"));
      if (!outputsIn(request).has("gw")) return turn(collabCall("wait_agent", { targets: spawned }, "gw"));
      return turn(text(`child got: ${outputsIn(request).get("gw")}`));
    },
  };
  const { server, result } = await runScript(script, "go", { config: "[agents]\nmax_depth = 2\n" });
  assert.equal(result.code, 0, result.stderr);
  const offered = (r: RecordedRequest): boolean => r.body.tools?.some((t) => t.name === "multi_agent_v1") === true;
  const children = childRequests(server);
  const grandchild = children.find((r) => userTextsIn(r).includes("leaf task"));
  const child = children.find((r) => userTextsIn(r).includes("delegate further"));
  assert.ok(grandchild && child);
  assert.equal(offered(child), true);
  assert.equal(offered(grandchild), false);
  // The grandchild's requests name the tree's root as their session.
  assert.equal(grandchild.headers["session-id"], parentRequests(server)[0]?.headers["session-id"]);
  const waited = outputsIn(parentRequests(server).at(-1) as RecordedRequest).get("w") ?? "";
  assert.match(waited, /child got: .*grandchild here/);
});

void test("on a Chat Completions provider the collab tools are plain functions, and their calls work the same", async () => {
  const script: AgentScript = {
    parent: [
      turn({ type: "function_call", name: "spawn_agent", arguments: { message: "count the files" }, callId: "s" }),
      (r) => turn({ type: "function_call", name: "wait_agent", arguments: { targets: spawnedIn(r) }, callId: "w" }),
      (r) => turn({ type: "function_call", name: "close_agent", arguments: { target: spawnedIn(r)[0] }, callId: "c" }),
      turn(text("three files")),
    ],
    child: () => turn(text("3")),
  };
  const server = await startAgentServer(script);
  const ws = makeWorkspace({
    config: `model = "gpt-4.1"\nmodel_provider = "local"\n[model_providers.local]\nname = "local"\nbase_url = "${server.url}"\nwire_api = "chat"\n`,
  });
  try {
    const result = await exec(server, ["--json", "go"], { cwd: ws.dir, home: ws.home });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(server.violations, []);
    const first = parentRequests(server)[0];
    assert.equal(first?.wire, "chat");
    const names = (first?.body.tools ?? []).map((t) => (t.function as JsonObject | undefined)?.name);
    for (const name of ["close_agent", "resume_agent", "send_input", "spawn_agent", "wait_agent"]) assert.ok(names.includes(name), `${name} offered as a function`);
    assert.equal(names.includes("multi_agent_v1"), false);
    const last = parentRequests(server).at(-1) as RecordedRequest;
    const id = spawnedIn(last)[0] ?? "";
    assert.equal(outputsIn(last).get("w"), JSON.stringify({ status: { [id]: { completed: "3" } }, timed_out: false }));
    assert.equal(outputsIn(last).get("c"), JSON.stringify({ previous_status: { completed: "3" } }));
    assert.equal(childRequests(server)[0]?.wire, "chat");
    assert.equal(jsonLines(result.stdout).at(-2)?.type, "item.completed");
  } finally {
    await server.close();
  }
});

void test("roles: the user's and a trusted project's role files are offered as agent_type and applied to the child", async () => {
  const { mkdirSync, writeFileSync } = await import("node:fs");
  const { join } = await import("node:path");
  const ws = makeWorkspace();
  mkdirSync(join(ws.home, "agents"));
  writeFileSync(
    join(ws.home, "agents", "reviewer.toml"),
    'name = "reviewer"\ndescription = "Reviews a change for bugs."\ndeveloper_instructions = "Report bugs only."\nmodel_reasoning_effort = "high"\nnickname_candidates = ["Ada", "Grace"]\n',
  );
  // A wider sandbox than the parent's is not granted; the key that does not apply is reported.
  writeFileSync(join(ws.home, "agents", "loose.toml"), 'description = "Wants more."\nsandbox_mode = "danger-full-access"\nnotify = ["x"]\n');
  mkdirSync(join(ws.dir, ".codex", "agents"), { recursive: true });
  writeFileSync(join(ws.dir, ".codex", "agents", "tester.toml"), 'name = "tester"\ndescription = "Runs the test suite."\nsandbox_mode = "read-only"\n');
  writeFileSync(join(ws.home, "config.toml"), `[projects."${ws.dir}"]\ntrust_level = "trusted"\n`);
  const script: AgentScript = {
    parent: [
      turn(collabCall("spawn_agent", { message: "review it", agent_type: "reviewer" }, "r"), collabCall("spawn_agent", { message: "test it", agent_type: "tester" }, "t"), collabCall("spawn_agent", { message: "go wild", agent_type: "loose" }, "l")),
      (r) => turn(collabCall("wait_agent", { targets: spawnedIn(r), timeout_ms: 60_000 }, "w")),
      turn(text("done")),
    ],
    child: () => turn(text("looked")),
  };
  const { server, result } = await runScript(script, "go", { ws, args: ["-s", "workspace-write"] });
  assert.equal(result.code, 0, result.stderr);
  const spawn = (parentRequests(server)[0]?.body.tools?.find((t) => t.name === "multi_agent_v1")?.tools as JsonObject[]).find((t) => t.name === "spawn_agent");
  const agentType = ((spawn?.parameters as JsonObject).properties as Record<string, JsonObject>).agent_type;
  const listed = String(agentType?.description);
  for (const role of ["reviewer: {", "tester: {", "loose: {", "default: {", "explorer: {", "worker: {"]) assert.ok(listed.includes(role), `${role} listed`);
  assert.ok(listed.indexOf("reviewer: {") < listed.indexOf("default: {"), "the user's roles come first");
  assert.match(listed, /reasoning effort is `high`/);

  const byTask = (task: string): RecordedRequest | undefined => childRequests(server).find((r) => userTextsIn(r).includes(task));
  const reviewer = byTask("review it");
  const developer = JSON.stringify(reviewer?.body.input?.filter((i) => i.role === "developer"));
  assert.match(developer, /Report bugs only\./);
  assert.deepEqual((reviewer?.body.reasoning as JsonObject | undefined)?.effort, "high");
  const sandboxOf = (request: RecordedRequest | undefined): string | undefined => /<sandbox_mode>([^<]+)<\/sandbox_mode>/.exec(userTextsIn(request as RecordedRequest).join("\n"))?.[1];
  assert.equal(sandboxOf(byTask("test it")), "read-only", "a role may narrow the sandbox");
  assert.equal(sandboxOf(byTask("go wild")), "workspace-write", "but never widen it");

  const metas = rolloutFiles(ws.home).map((f) => readLines(f)[0]?.payload ?? {});
  const reviewerMeta = metas.find((m) => m.agent_role === "reviewer");
  assert.ok(reviewerMeta && ["Ada", "Grace"].includes(String(reviewerMeta.agent_nickname)));
  assert.match(result.stdout, /notify.*does not apply to a sub-agent.s role/);
  assert.match(result.stdout, /Role 'loose' asks for sandbox_mode \\"danger-full-access\\", wider than its parent's/);
});

void test("resuming the parent restores its children: their recorded status, and their conversation when given more work", async () => {
  const first: AgentScript = {
    parent: [turn(collabCall("spawn_agent", { message: "remember 42" }, "s")), (r) => turn(collabCall("wait_agent", { targets: spawnedIn(r) }, "w")), turn(text("noted"))],
    child: (_task, r) => turn(text(`answer after ${userTextsIn(r).filter((t) => !t.startsWith("<")).length} message(s)`)),
  };
  const run1 = await runScript(first, "start");
  assert.equal(run1.result.code, 0, run1.result.stderr);
  const parentId = String(run1.events[0]?.thread_id);
  const childId = spawnedIn(parentRequests(run1.server).at(-1) as RecordedRequest)[0] ?? "";

  const second: AgentScript = {
    parent: [
      turn(collabCall("wait_agent", { targets: [childId] }, "w1")),
      turn(collabCall("send_input", { target: childId, message: "what was the number?" }, "si")),
      turn(collabCall("wait_agent", { targets: [childId] }, "w2")),
      turn(text("all good")),
    ],
    child: (_task, r) => turn(text(`answer after ${userTextsIn(r).filter((t) => !t.startsWith("<")).length} message(s)`)),
  };
  const run2 = await runScript(second, "continue", { ws: run1.ws, args: ["resume", parentId] });
  assert.equal(run2.result.code, 0, run2.result.stderr);
  const outputs = outputsIn(parentRequests(run2.server).at(-1) as RecordedRequest);
  assert.equal(outputs.get("w1"), JSON.stringify({ status: { [childId]: { completed: "answer after 1 message(s)" } }, timed_out: false }));
  assert.equal(outputs.get("w2"), JSON.stringify({ status: { [childId]: { completed: "answer after 2 message(s)" } }, timed_out: false }));
  // The child went on in its own file, from its own history.
  const resumed = childRequests(run2.server)[0];
  assert.deepEqual(userTextsIn(resumed as RecordedRequest).filter((t) => !t.startsWith("<")), ["remember 42", "what was the number?"]);
  assert.equal(rolloutFiles(run1.ws.home).length, 2);
});

void test("gpt-5.5 finds the collab tools through tool_search, as the reference's gpt-5.5 does, and calls them in their namespace", async () => {
  const script: AgentScript = {
    parent: [
      turn({ type: "tool_search_call", arguments: { query: "spawn a sub-agent and wait for it" }, callId: "ts" }),
      turn(collabCall("spawn_agent", { message: "count" }, "s")),
      (r) => turn(collabCall("wait_agent", { targets: spawnedIn(r) }, "w")),
      turn(text("done")),
    ],
    child: () => turn(text("7")),
  };
  const { server, result } = await runScript(script, "go", { args: ["-m", "gpt-5.5"] });
  assert.equal(result.code, 0, result.stderr);
  const [first] = parentRequests(server);
  const offered = (first?.body.tools ?? []).map((t) => t.name ?? t.type);
  assert.equal(offered.includes("multi_agent_v1"), false, "not offered up front");
  assert.ok(offered.includes("tool_search"));
  assert.match(JSON.stringify(first?.body.input), /Deferred tool namespaces:\\n- multi_agent_v1/);
  const second = parentRequests(server)[1];
  const found = second?.body.input?.find((i) => i.type === "tool_search_output");
  const namespaces = (found?.tools as JsonObject[] | undefined) ?? [];
  assert.equal(namespaces[0]?.name, "multi_agent_v1");
  assert.ok((namespaces[0]?.tools as JsonObject[]).some((t) => t.name === "spawn_agent" && t.defer_loading === true));
  const last = parentRequests(server).at(-1) as RecordedRequest;
  const id = spawnedIn(last)[0] ?? "";
  assert.equal(outputsIn(last).get("w"), JSON.stringify({ status: { [id]: { completed: "7" } }, timed_out: false }));
});

void test("features.multi_agent = false: no collab tools, and a call to one is unsupported", async () => {
  const script: AgentScript = {
    parent: [turn(collabCall("spawn_agent", { message: "x" }, "s")), turn(text("fine"))],
    child: () => turn(text("never")),
  };
  const { server, result } = await runScript(script, "go", { args: ["-m", "gpt-5.4", "--disable", "multi_agent"] });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(parentRequests(server)[0]?.body.tools?.some((t) => t.name === "multi_agent_v1"), false);
  assert.equal(outputsIn(parentRequests(server).at(-1) as RecordedRequest).get("s"), "unsupported call: multi_agent_v1__spawn_agent");
  assert.equal(childRequests(server).length, 0);
});

void test("lifecycle hooks: a sub-agent runs SubagentStart and SubagentStop (the tree's session id, its own id, the parent's transcript), not SessionStart and Stop", async () => {
  const hooks = hookDir();
  const ws = makeWorkspace();
  writeHooksJson(ws.home, {
    SessionStart: [{ hooks: [command(hooks.record("session-start"))] }],
    SubagentStart: [{ hooks: [command(`${hooks.record("start")}; echo 'Answer in one line.'`)] }],
    Stop: [{ hooks: [command(hooks.record("stop"))] }],
    SubagentStop: [{ hooks: [command(hooks.record("stop-sub"))] }],
    SessionEnd: [{ hooks: [command(hooks.record("end"))] }],
  });
  const { server, result, events } = await runScript(SPAWN_WAIT_CLOSE, "go", { ws, args: ["--dangerously-bypass-hook-trust"] });
  assert.equal(result.code, 0, result.stderr);
  const parentId = String(events[0]?.thread_id);
  const childId = String((collabItems(events)[0]?.receiver_thread_ids as string[] | undefined)?.[0]);
  assert.equal(hooks.records("session-start").length, 1, "the parent's session only");
  assert.equal(hooks.records("stop").length, 1, "the parent's turn only");
  assert.equal(hooks.records("end").length, 1, "closing the sub-agent does not end the session");
  const [start] = hooks.records("start");
  assert.deepEqual([start?.session_id, start?.agent_id, start?.agent_type], [parentId, childId, "default"]);
  const [stop] = hooks.records("stop-sub");
  assert.equal(stop?.agent_id, childId);
  assert.equal(stop?.transcript_path, rolloutFileOf(ws.home, parentId));
  assert.equal(stop?.agent_transcript_path, rolloutFileOf(ws.home, childId));
  assert.equal(stop?.last_assistant_message, "tests/a.test.ts and tests/b.test.ts");
  // SubagentStart's context reached the sub-agent's model request.
  assert.match(JSON.stringify(childRequests(server)[0]?.body.input), /Answer in one line\./);
});
