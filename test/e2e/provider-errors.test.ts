/**
 * End-to-end: what `codex-ts exec` does when the model provider cannot be reached or keeps
 * failing: a local base_url that refuses connections fails fast with the setting to fix, and the
 * "Reconnecting... n/max" notices count one sequence whichever layer retries.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { text, turn, errorTurn } from "../support/model-server.js";
import { exec, jsonLines, makeWorkspace, runCli, withServer } from "../support/cli.js";

/** A loopback port nothing listens on: one the kernel just handed out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const PROVIDER = (port: number): string =>
  `model_provider = "x"\n[model_providers.x]\nname = "Local"\nbase_url = "http://127.0.0.1:${port}/v1"\nenv_key = "OPENAI_API_KEY"\n`;

void test("a local base_url that refuses connections fails after a few quick tries, naming the provider's base_url key", async () => {
  const port = await closedPort();
  const ws = makeWorkspace({ config: PROVIDER(port) });
  const started = Date.now();
  const human = await runCli(["exec", "hi"], { cwd: ws.dir, home: ws.home });
  const elapsed = Date.now() - started;
  assert.equal(human.code, 1, human.stderr);
  assert.equal(human.stdout, "");
  assert.ok(
    human.stderr.includes(
      `ERROR: Could not connect to model provider "x" at http://127.0.0.1:${port}/v1: connection refused (nothing is listening on 127.0.0.1:${port}). ` +
        "Start the server, or point model_providers.x.base_url at one that is running.",
    ),
    human.stderr,
  );
  assert.ok(elapsed < 5_000, `took ${elapsed} ms`);

  const json = await runCli(["exec", "--json", "hi"], { cwd: ws.dir, home: ws.home });
  assert.equal(json.code, 1, json.stderr);
  const errors = jsonLines(json.stdout).filter((e) => e.type === "error").map((e) => String(e.message));
  assert.deepEqual(errors.slice(0, -1), ["Reconnecting... 1/5", "Reconnecting... 2/5"]);
  assert.match(errors.at(-1) ?? "", /connection refused .*model_providers\.x\.base_url/);
});

void test("the built-in provider's hint names openai_base_url and OPENAI_BASE_URL", async () => {
  const port = await closedPort();
  const ws = makeWorkspace();
  const r = await runCli(["exec", "hi"], { cwd: ws.dir, home: ws.home, env: { OPENAI_BASE_URL: `http://localhost:${port}/v1` } });
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /point openai_base_url \(config\.toml\) or OPENAI_BASE_URL at one that is running/);
});

void test("retries before and after the stream started count one sequence", async () => {
  const ws = makeWorkspace();
  // A 500 (retried by the HTTP layer), then a stream that drops (retried by the turn), then an answer.
  await withServer([errorTurn(500), { ...turn(text("half")), dropAfterEvents: 1 }, turn(text("whole"))], async (server) => {
    const r = await exec(server, ["--json", "hi"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 0, r.stderr);
    const errors = jsonLines(r.stdout).filter((e) => e.type === "error").map((e) => e.message);
    assert.deepEqual(errors, ["Reconnecting... 1/5", "Reconnecting... 2/5"]);
  });
});

void test("the sequence ends at its maximum even when every layer keeps failing", async () => {
  const ws = makeWorkspace({ config: `${PROVIDER(9)}stream_max_retries = 2\nrequest_max_retries = 2\n` });
  const failures = Array.from({ length: 10 }, () => errorTurn(500));
  await withServer(failures, async (server) => {
    const r = await runCli(["exec", "--json", "-c", `model_providers.x.base_url="${server.url}"`, "hi"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 1, r.stderr);
    const errors = jsonLines(r.stdout).filter((e) => e.type === "error").map((e) => String(e.message));
    assert.deepEqual(errors.slice(0, -1), ["Reconnecting... 1/2", "Reconnecting... 2/2"]);
    assert.equal(server.requests.length, 3, "one try and two retries");
  });
});
