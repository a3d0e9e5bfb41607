/**
 * OpenTelemetry through the real CLI and core, to collectors run by the test: OTLP/HTTP with
 * JSON and with protobuf, and OTLP/gRPC. Checks the reference's event names and fields, the
 * prompt redaction, the user's approval decisions, that nothing secret leaves, that a collector
 * which refuses or never answers does not break or hold up a run, and that without an exporter
 * no OpenTelemetry code is loaded at all.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exec, makeWorkspace, NEEDS_TSC_BUILD, withServer } from "../support/cli.js";
import { loadOrderEnv, readLoadOrder } from "../support/load-order.js";
import { fnCall, startModelServer, text, turn } from "../support/model-server.js";
import { startGrpcReceiver, startHttpReceiver, type OtlpReceiver, type ReceivedRecord } from "../support/otlp-receiver.js";
import { loadConfig } from "../../src/config/load-config.js";
import { ThreadManager } from "../../src/core/thread-manager.js";
import { FLUSH_BUDGET_MS } from "../../src/telemetry/otel.js";
import { until, untilAsked } from "../support/session.js";

const API_KEY = "sk-test-key";

function otelConfig(exporter: string, extra = ""): string {
  return `[otel]\nenvironment = "staging"\nexporter = ${exporter}\n${extra}`;
}

const byName = (records: ReceivedRecord[], name: string): ReceivedRecord[] => records.filter((r) => r.eventName === name);

function assertCommonFields(records: ReceivedRecord[], threadId: string | null): void {
  assert.ok(records.length > 0);
  for (const r of records) {
    assert.equal(r.attributes["event.name"], r.eventName);
    assert.match(String(r.attributes["event.timestamp"]), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    if (threadId !== null) assert.equal(r.attributes["conversation.id"], threadId);
    assert.equal(typeof r.attributes["app.version"], "string");
    assert.ok(String(r.attributes["terminal.type"]).length > 0);
    assert.equal(r.attributes.model, "gpt-5.5");
    assert.equal(r.attributes.slug, "gpt-5.5");
    assert.equal(r.resource["service.name"], "codex-cli");
    assert.equal(r.resource.env, "staging");
  }
}

/** Nothing secret in anything the collector received. */
function assertNoSecrets(receiver: OtlpReceiver): void {
  const everything = JSON.stringify({ records: receiver.records, headers: receiver.headers });
  assert.ok(!everything.includes(API_KEY), "the API key never leaves");
  assert.ok(!/authorization/i.test(everything), "no auth header is exported");
}

void test("exec over OTLP/HTTP JSON: the reference's events and fields, the prompt redacted, header values from the environment", async () => {
  const receiver = await startHttpReceiver();
  const ws = makeWorkspace({
    config: otelConfig(`{ otlp-http = { endpoint = "${receiver.endpoint}", protocol = "json", headers = { "x-otlp-api-key" = "\${OTLP_TOKEN}" } } }`),
  });
  try {
    await withServer([turn(fnCall("exec_command", { cmd: "echo hi-from-tool" }, "c1")), turn(text("done"))], async (server) => {
      const run = await exec(server, ["--json", "-s", "danger-full-access", "say hello"], { cwd: ws.dir, home: ws.home, env: { OTLP_TOKEN: "tok-123" } });
      assert.equal(run.code, 0, run.stderr);
      const threadId = String((JSON.parse(run.stdout.split("\n")[0] ?? "{}") as { thread_id?: string }).thread_id);
      // Flushed before the process ended.
      const records = receiver.records;
      assertCommonFields(records, threadId);
      assert.ok(receiver.contentTypes.every((t) => t.includes("json")));
      assert.ok(receiver.headers.every((h) => h["x-otlp-api-key"] === "tok-123"));

      const [starts] = byName(records, "codex.conversation_starts");
      assert.equal(starts?.attributes.approval_policy, "never");
      assert.equal(starts?.attributes.sandbox_policy, "danger-full-access");
      const [prompt] = byName(records, "codex.user_prompt");
      assert.deepEqual([prompt?.attributes.prompt, prompt?.attributes.prompt_length], ["[REDACTED]", 9]);
      const requests = byName(records, "codex.api_request");
      assert.equal(requests.length, 2);
      assert.deepEqual(requests.map((r) => [r.attributes.attempt, r.attributes["http.response.status_code"]]), [[1, 200], [1, 200]]);
      assert.ok(requests.every((r) => typeof r.attributes.duration_ms === "number"));
      const kinds = byName(records, "codex.sse_event").map((r) => r.attributes["event.kind"]);
      assert.ok(kinds.includes("response.created") && kinds.includes("response.completed"));
      const completed = byName(records, "codex.sse_event").find((r) => r.attributes["event.kind"] === "response.completed");
      assert.equal(typeof completed?.attributes.input_token_count, "number");
      const [decision] = byName(records, "codex.tool_decision");
      assert.deepEqual(
        [decision?.attributes.tool_name, decision?.attributes.call_id, decision?.attributes.decision, decision?.attributes.source],
        ["exec_command", "c1", "approved", "config"],
      );
      const [result] = byName(records, "codex.tool_result");
      assert.equal(result?.attributes.tool_name, "exec_command");
      assert.equal(result?.attributes.success, "true");
      assert.equal(result?.attributes.arguments, JSON.stringify({ cmd: "echo hi-from-tool" }));
      assert.match(String(result?.attributes.output), /hi-from-tool/);
      assertNoSecrets(receiver);
    });
  } finally {
    await receiver.close();
  }
});

void test("OTLP/HTTP protobuf with log_user_prompt: the prompt text is sent; a failed command reports success \"false\"", async () => {
  const receiver = await startHttpReceiver();
  const ws = makeWorkspace({ config: otelConfig(`{ otlp-http = { endpoint = "${receiver.endpoint}", protocol = "binary" } }`, "log_user_prompt = true\n") });
  try {
    await withServer([turn(fnCall("exec_command", { cmd: "exit 3" }, "c1")), turn(text("done"))], async (server) => {
      const run = await exec(server, ["-s", "danger-full-access", "ab cd"], { cwd: ws.dir, home: ws.home });
      assert.equal(run.code, 0, run.stderr);
      assert.ok(receiver.contentTypes.every((t) => t.includes("protobuf")));
      assertCommonFields(receiver.records, null);
      const [prompt] = byName(receiver.records, "codex.user_prompt");
      assert.deepEqual([prompt?.attributes.prompt, prompt?.attributes.prompt_length], ["ab cd", 5]);
      const [result] = byName(receiver.records, "codex.tool_result");
      assert.equal(result?.attributes.success, "false");
      assertNoSecrets(receiver);
    });
  } finally {
    await receiver.close();
  }
});

void test("OTLP/gRPC through the core: the user's approval decision, a patch, metadata on every export, counters", async () => {
  const receiver = await startGrpcReceiver();
  const home = mkdtempSync(join(tmpdir(), "codex-ts-otel-"));
  const cwd = mkdtempSync(join(tmpdir(), "codex-ts-otel-cwd-"));
  const patch = "*** Begin Patch\n*** Add File: note.txt\n+hello\n*** End Patch\n";
  const server = await startModelServer([
    turn(fnCall("exec_command", { cmd: "touch made-by-command" }, "c1")),
    turn({ type: "custom_tool_call", name: "apply_patch", input: patch, callId: "p1" }),
    turn(text("done")),
  ]);
  writeFileSync(
    join(home, "config.toml"),
    `openai_base_url = "${server.url}"\n${otelConfig(`{ otlp-grpc = { endpoint = "${receiver.endpoint}", headers = { "x-otlp-meta" = "abc123" } } }`)}`,
  );
  const env = { CODEX_HOME: home, OPENAI_API_KEY: API_KEY };
  const manager = new ThreadManager({ env, source: "exec", originator: "codex_exec", userAgentProduct: "codex_exec", readCodexApiKey: true });
  try {
    const config = loadConfig({ cwd, overrides: ['sandbox_mode="workspace-write"'], env, approvalPolicy: "untrusted" });
    const { session, threadId } = await manager.startThread({ config });
    const id = session.submit({ type: "user_input", items: [{ type: "text", text: "make things" }] });
    await untilAsked(session, id, "exec_approval_request");
    session.submit({ type: "exec_approval", id: "c1", decision: "approved_for_session" });
    await untilAsked(session, id, "apply_patch_approval_request");
    session.submit({ type: "patch_approval", id: "p1", decision: "approved" });
    await until(session, id, "task_complete");
    await manager.shutdown();

    assertCommonFields(receiver.records, threadId);
    assert.ok(receiver.headers.length > 0 && receiver.headers.every((h) => h["x-otlp-meta"] === "abc123"));
    const decisions = byName(receiver.records, "codex.tool_decision").map((r) => [r.attributes.tool_name, r.attributes.decision, r.attributes.source]);
    assert.deepEqual(decisions, [
      ["exec_command", "approved_for_session", "user"],
      ["apply_patch", "approved", "user"],
    ]);
    assert.deepEqual(
      byName(receiver.records, "codex.tool_result").map((r) => [r.attributes.tool_name, r.attributes.success]),
      [
        ["exec_command", "true"],
        ["apply_patch", "true"],
      ],
    );
    assert.ok(receiver.metricExports > 0, "the counters were exported at shutdown");
    assertNoSecrets(receiver);
  } finally {
    await server.close();
    await receiver.close();
  }
});

void test("a collector that is down, refuses or never answers does not fail the run nor hold its exit past the flush budget; the loss is reported once", async () => {
  for (const mode of ["down", "refuse", "hang"] as const) {
    const receiver = mode === "down" ? null : await startHttpReceiver(mode);
    // Port 9 (discard) has no listener here: connections are refused at once.
    const endpoint = receiver?.endpoint ?? "http://127.0.0.1:9/v1/logs";
    const ws = makeWorkspace({ config: otelConfig(`{ otlp-http = { endpoint = "${endpoint}", protocol = "json" } }`) });
    try {
      await withServer([turn(fnCall("exec_command", { cmd: "true" }, "c1")), turn(text("fine"))], async (server) => {
        let answeredAt = 0;
        const run = await exec(server, ["-s", "danger-full-access", "go"], {
          cwd: ws.dir,
          home: ws.home,
          timeoutMs: 15_000,
          onSpawn: (child) => child.stdout?.on("data", () => (answeredAt ||= Date.now())),
        });
        const exitLag = Date.now() - answeredAt;
        assert.equal(run.code, 0, run.stderr);
        assert.equal(run.stdout, "fine\n");
        // Said once, whichever way the records were lost.
        assert.equal(run.stderr.split("did not accept").length - 1, 1, run.stderr);
        // A liveness bound, not a benchmark: the docs promise the final flush waits at most 2 s;
        // an export still retrying held the exit ~5 s. The rest is slack for a loaded machine.
        assert.ok(exitLag < FLUSH_BUDGET_MS + 1500, `${mode}: the process exited ${exitLag} ms after its answer`);
      });
    } finally {
      await receiver?.close();
    }
  }
});

void test("exporter = \"none\" (the default) loads no OpenTelemetry code", { skip: NEEDS_TSC_BUILD }, async () => {
  const ws = makeWorkspace({ config: otelConfig('"none"') });
  const log = join(ws.home, "loads.txt");
  await withServer([turn(text("ok"))], async (server) => {
    const run = await exec(server, ["go"], { cwd: ws.dir, home: ws.home, env: loadOrderEnv(log) });
    assert.equal(run.code, 0, run.stderr);
  });
  const loaded = readLoadOrder(log).before.join("\n");
  assert.match(loaded, /core\/session\.js/, "the hook saw the run's modules");
  assert.doesNotMatch(loaded, /@opentelemetry|@grpc|telemetry\/otel\.js/);
});

void test("a bad [otel] table is a config error naming the file, line and key", async () => {
  const ws = makeWorkspace({ config: '[otel]\nexporter = { otlp-http = { protocol = "json" } }\n' });
  await withServer([], async (server) => {
    const run = await exec(server, ["go"], { cwd: ws.dir, home: ws.home });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /config\.toml:2: otel\.exporter: otlp-http\.endpoint: expected a URL string/);
  });
});
