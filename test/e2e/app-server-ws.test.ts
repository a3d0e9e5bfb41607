/**
 * `codex-ts app-server --listen ws://…`: health probes, browsers and unauthenticated clients
 * refused, many clients on one server with per-thread subscriptions, and a client that
 * disconnects mid-turn: the turn goes on, and another client resumes the thread and answers the
 * approval the first one left open. Every message is checked against the reference's schema.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { createHmac } from "node:crypto";
import { existsSync, writeFileSync } from "node:fs";
import { get } from "node:http";
import { join } from "node:path";
import { AppServerClient, assertNoViolations } from "../support/app-server-client.js";
import { CLI_PATH, makeWorkspace, testEnv, type Workspace } from "../support/cli.js";
import { fnCall, startModelServer, text, turn } from "../support/model-server.js";

type Json = Record<string, unknown>;

interface Listening {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  stop: () => Promise<number | null>;
}

/** Starts the server and waits for the address it prints. */
function listen(ws: Workspace, args: string[]): Promise<Listening> {
  const child = spawn(process.execPath, [CLI_PATH, "app-server", ...args], { cwd: ws.dir, env: testEnv(ws.home), stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr?.on("data", (d: Buffer) => {
      stderr += d.toString();
      const url = /listening on: (ws:\/\/\S+)/.exec(stderr)?.[1];
      if (url) resolve({ child, url, stderr: () => stderr, stop: () => (child.kill("SIGTERM"), exited) });
    });
    void exited.then((code) => reject(new Error(`app-server exited (${code}) before listening: ${stderr}`)));
  });
}

function httpStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on("error", reject);
  });
}

void test("over a WebSocket: probes, subscriptions per thread, a client leaving mid-turn and another one answering its approval", async () => {
  const ws = makeWorkspace();
  const made = join(ws.dir, "ws-made.txt");
  const model = await startModelServer([
    turn(fnCall("exec_command", { cmd: `touch ${made}`, sandbox_permissions: "require_escalated", justification: "Create it?" }, "call_ws")),
    turn(text("done over ws")),
  ]);
  writeFileSync(join(ws.home, "config.toml"), `openai_base_url = "${model.url}"\n`);
  const server = await listen(ws, ["--listen", "ws://127.0.0.1:0"]);
  const http = server.url.replace(/^ws:/, "http:");
  const clients: AppServerClient[] = [];
  try {
    assert.equal(await httpStatus(`${http}/readyz`), 200);
    assert.equal(await httpStatus(`${http}/healthz`), 200);
    assert.equal(await httpStatus(`${http}/`), 400, "a plain request is not an upgrade");
    assert.equal(await httpStatus(`${http}/readyz`, { origin: "http://evil.example" }), 403, "browsers are refused");
    const a = await AppServerClient.connect(server.url);
    const b = await AppServerClient.connect(server.url);
    const c = await AppServerClient.connect(server.url);
    clients.push(a, b, c);
    await Promise.all([a.initialize("client_a"), b.initialize("client_b"), c.initialize("client_c")]);

    const started = await a.request("thread/start", { cwd: ws.dir, approvalPolicy: "on-request", sandbox: "read-only" });
    const threadId = String((started.thread as Json).id);
    await a.request("turn/start", { threadId, input: [{ type: "text", text: "make the file", text_elements: [] }] });
    const asked = await a.nextMethod("item/commandExecution/requestApproval");
    assert.equal(asked.params.itemId, "call_ws");
    // Only subscribers hear a thread's turn.
    assert.equal(b.methodsSeen().includes("turn/started"), false);
    assert.equal(c.methodsSeen().includes("item/commandExecution/requestApproval"), false);

    // A leaves without answering: the turn waits for someone who can.
    await a.close();
    const resumedB = await b.request("thread/resume", { threadId });
    assert.deepEqual((resumedB.thread as Json).status, { type: "active", activeFlags: ["waitingOnApproval"] });
    const inProgress = ((resumedB.thread as Json).turns as Json[]).at(-1);
    assert.equal(inProgress?.status, "inProgress", "the turn in progress is part of the resumed thread");
    await c.request("thread/resume", { threadId });
    const [toB, toC] = await Promise.all([b.nextMethod("item/commandExecution/requestApproval"), c.nextMethod("item/commandExecution/requestApproval")]);
    assert.equal(toB.params.itemId, "call_ws");
    assert.equal(toC.params.itemId, "call_ws");
    assert.equal(existsSync(made), false);

    c.respond(toC.id, { decision: "accept" });
    const [resolvedB, resolvedC] = await Promise.all([b.nextMethod("serverRequest/resolved"), c.nextMethod("serverRequest/resolved")]);
    assert.equal(resolvedB.params.requestId, toB.id, "each client hears of its own request id");
    assert.equal(resolvedC.params.requestId, toC.id);
    const [doneB, doneC] = await Promise.all([b.nextMethod("turn/completed"), c.nextMethod("turn/completed")]);
    assert.equal((doneB.params.turn as Json).status, "completed");
    assert.equal((doneC.params.turn as Json).status, "completed");
    assert.equal(existsSync(made), true);

    // After an unsubscribe, c hears nothing more of the thread.
    assert.deepEqual(await c.request("thread/unsubscribe", { threadId }), { status: "unsubscribed" });
    assert.deepEqual(await c.request("thread/unsubscribe", { threadId }), { status: "notSubscribed" });
    assertNoViolations(a, b, c);
  } finally {
    for (const client of clients) await client.close();
    assert.equal(await server.stop(), 0, server.stderr());
    await model.close();
  }
});

void test("a WebSocket listener off loopback needs --ws-auth; with a token, only clients that send it get in", async () => {
  const ws = makeWorkspace();
  const refused = spawn(process.execPath, [CLI_PATH, "app-server", "--listen", "ws://0.0.0.0:0"], { cwd: ws.dir, env: testEnv(ws.home) });
  let refusedErr = "";
  refused.stderr.on("data", (d: Buffer) => (refusedErr += d.toString()));
  const code = await new Promise<number | null>((resolve) => refused.on("close", resolve));
  assert.equal(code, 2);
  assert.match(refusedErr, /refusing to listen on 0\.0\.0\.0:0 without WebSocket auth: add --ws-auth capability-token/);

  const tokenFile = join(ws.home, "ws-token");
  writeFileSync(tokenFile, "s3cret-capability\n");
  const server = await listen(ws, ["--listen", "ws://127.0.0.1:0", "--ws-auth", "capability-token", "--ws-token-file", tokenFile]);
  try {
    await assert.rejects(AppServerClient.connect(server.url), /HTTP 401/);
    await assert.rejects(AppServerClient.connect(server.url, "wrong"), /HTTP 401/);
    const client = await AppServerClient.connect(server.url, "s3cret-capability");
    await client.initialize();
    assert.deepEqual(await client.request("thread/loaded/list", {}), { data: [], nextCursor: null });
    await client.close();
  } finally {
    await server.stop();
  }

  const secretFile = join(ws.home, "ws-secret");
  writeFileSync(secretFile, "shared-secret-for-hs256");
  const signed = await listen(ws, ["--listen", "ws://127.0.0.1:0", "--ws-auth", "signed-bearer-token", "--ws-shared-secret-file", secretFile, "--ws-audience", "codex-app-server"]);
  const jwt = (claims: Json, secret = "shared-secret-for-hs256"): string => {
    const part = (v: Json): string => Buffer.from(JSON.stringify(v)).toString("base64url");
    const body = `${part({ alg: "HS256", typ: "JWT" })}.${part(claims)}`;
    return `${body}.${createHmac("sha256", secret).update(body).digest("base64url")}`;
  };
  const now = Math.floor(Date.now() / 1000);
  try {
    await assert.rejects(AppServerClient.connect(signed.url, jwt({ exp: now + 60, aud: "codex-app-server" }, "other-secret")), /HTTP 401/);
    await assert.rejects(AppServerClient.connect(signed.url, jwt({ exp: now - 3600, aud: "codex-app-server" })), /HTTP 401/);
    await assert.rejects(AppServerClient.connect(signed.url, jwt({ exp: now + 60, aud: "someone-else" })), /HTTP 401/);
    const client = await AppServerClient.connect(signed.url, jwt({ exp: now + 60, aud: "codex-app-server" }));
    await client.initialize();
    await client.close();
  } finally {
    await signed.stop();
  }
});
