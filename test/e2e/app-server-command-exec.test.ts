/**
 * `command/exec` with a `processId` over stdio, every message checked against the reference's
 * schema: output streamed as `command/exec/outputDelta` and cut at `outputBytesCap`, stdin
 * written and closed, a terminal sized and resized, a command terminated, the sandbox holding for
 * these commands too, the reference's errors, and a WebSocket client's commands ended when it
 * goes away while the server serves its other clients.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { AppServerClient, assertNoViolations, startWsAppServer } from "../support/app-server-client.js";
import { makeWorkspace } from "../support/cli.js";

type Json = Record<string, unknown>;
const b64 = (text: string): string => Buffer.from(text, "utf8").toString("base64");

/** Everything streamed for one process and stream, decoded. */
function streamed(client: AppServerClient, processId: string, stream = "stdout"): string {
  return client.received
    .filter((m) => m.method === "command/exec/outputDelta" && (m.params as Json).processId === processId && (m.params as Json).stream === stream)
    .map((m) => Buffer.from(String((m.params as Json).deltaBase64), "base64").toString("utf8"))
    .join("");
}

/** Whether a process with exactly this command line runs (the sandbox gives the command a pid namespace of its own). */
function running(commandLine: string): boolean {
  try {
    execFileSync("pgrep", ["-fx", commandLine], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

void test("command/exec with a processId: streamed output, stdin, a terminal, terminate, caps, errors", async () => {
  const ws = makeWorkspace();
  const client = AppServerClient.spawn({ cwd: ws.dir, home: ws.home });
  try {
    await client.initialize();
    // stdin written, then closed: cat answers and ends; the output came as deltas, not in the response.
    const cat = client.request("command/exec", { command: ["cat"], processId: "cat", streamStdin: true, streamStdoutStderr: true, cwd: ws.dir });
    for (let i = 0; i < 100; i++) {
      try {
        await client.request("command/exec/write", { processId: "cat", deltaBase64: b64("hello\n") });
        break;
      } catch (err) {
        if (!/still starting/.test((err as Error).message)) throw err;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    await client.next((m) => m.method === "command/exec/outputDelta" && (m.params as Json).processId === "cat");
    assert.deepEqual(await client.request("command/exec/write", { processId: "cat", closeStdin: true }), {});
    assert.deepEqual(await cat, { exitCode: 0, stdout: "", stderr: "" });
    assert.equal(streamed(client, "cat"), "hello\n");

    // Buffered, but with an id: terminate ends it (the whole process group).
    const sleeper = client.request<Json>("command/exec", { command: ["sh", "-c", "echo started; exec sleep 30"], processId: "sleeper", cwd: ws.dir, timeoutMs: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.deepEqual(await client.request("command/exec/terminate", { processId: "sleeper" }), {});
    const ended = await sleeper;
    assert.equal(ended.exitCode, 137);
    assert.equal(ended.stdout, "started\n");
    await assert.rejects(client.request("command/exec/terminate", { processId: "sleeper" }), /no active command\/exec for process id "sleeper"/);

    // A terminal of the size asked for; tty implies streaming.
    const term = await client.request<Json>("command/exec", { command: ["sh", "-c", "stty size; test -t 0 && echo tty"], processId: "term", tty: true, size: { rows: 30, cols: 100 }, cwd: ws.dir });
    assert.equal(term.exitCode, 0);
    assert.match(streamed(client, "term"), /^30 100\r?\ntty\r?\n$/);
    // Resized while it runs.
    const resized = client.request<Json>("command/exec", { command: ["sh", "-c", "read line; stty size"], processId: "resized", tty: true, cwd: ws.dir });
    for (let i = 0; i < 100; i++) {
      try {
        await client.request("command/exec/resize", { processId: "resized", size: { rows: 12, cols: 40 } });
        break;
      } catch (err) {
        if (!/still starting/.test((err as Error).message)) throw err;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    await client.request("command/exec/write", { processId: "resized", deltaBase64: b64("go\r") });
    assert.equal((await resized).exitCode, 0);
    assert.match(streamed(client, "resized"), /12 40/);

    // The cap: each stream stops at outputBytesCap bytes, its last chunk says so.
    await client.request("command/exec", { command: ["sh", "-c", "printf 'abcdefghijklmnop'; printf 'xyz' >&2"], processId: "capped", streamStdoutStderr: true, outputBytesCap: 10, cwd: ws.dir });
    assert.equal(streamed(client, "capped"), "abcdefghij");
    assert.equal(streamed(client, "capped", "stderr"), "xyz");
    const last = client.received.filter((m) => m.method === "command/exec/outputDelta" && (m.params as Json).processId === "capped" && (m.params as Json).stream === "stdout").at(-1);
    assert.equal((last?.params as Json).capReached, true);

    // A chunk that fills the cap exactly: the next output is dropped, and an empty last chunk says so.
    await client.request("command/exec", { command: ["sh", "-c", "printf 0123456789; sleep 0.2; printf more"], processId: "exact", streamStdoutStderr: true, outputBytesCap: 10, cwd: ws.dir });
    const exact = client.received.filter((m) => m.method === "command/exec/outputDelta" && (m.params as Json).processId === "exact").map((m) => m.params as Json);
    assert.deepEqual(exact.map((p) => [Buffer.from(String(p.deltaBase64), "base64").toString(), p.capReached]), [["0123456789", false], ["", true]]);

    // The sandbox holds: a read-only policy refuses the write.
    const blocked = await client.request<Json>("command/exec", { command: ["touch", join(ws.dir, "nope.txt")], processId: "ro", streamStdoutStderr: true, cwd: ws.dir, sandboxPolicy: { type: "readOnly", networkAccess: false } });
    assert.notEqual(blocked.exitCode, 0);
    assert.equal(existsSync(join(ws.dir, "nope.txt")), false);

    // The reference's errors.
    await assert.rejects(client.request("command/exec", { command: ["cat"], streamStdin: true }), /command\/exec tty or streaming requires a client-supplied processId/);
    await assert.rejects(client.request("command/exec", { command: ["echo"], size: { rows: 5, cols: 5 } }), /command\/exec size requires tty: true/);
    await assert.rejects(client.request("command/exec/write", { processId: "nope", deltaBase64: b64("x") }), /no active command\/exec for process id "nope"/);
    const twice = client.request("command/exec", { command: ["sleep", "5"], processId: "twice", cwd: ws.dir });
    await assert.rejects(client.request("command/exec", { command: ["sleep", "5"], processId: "twice", cwd: ws.dir }), /duplicate active command\/exec process id: "twice"/);
    await assert.rejects(client.request("command/exec/write", { processId: "twice", deltaBase64: b64("x") }), /started without streamStdin|still starting/);
    await client.request("command/exec/terminate", { processId: "twice" });
    await twice;
    assertNoViolations(client);
  } finally {
    await client.close();
  }
});

void test("a client that goes away takes its commands with it; the server and its other clients go on", async () => {
  const ws = makeWorkspace();
  const server = await startWsAppServer(ws.dir, ws.home);
  const url = `ws://127.0.0.1:${server.port}`;
  const marker = "sleep 61.25";
  try {
    const leaving = await AppServerClient.connect(url);
    const staying = await AppServerClient.connect(url);
    await Promise.all([leaving.initialize("leaving"), staying.initialize("staying")]);
    void leaving.call("command/exec", { command: ["sleep", "61.25"], processId: "long", cwd: ws.dir, disableTimeout: true });
    for (let i = 0; i < 200 && !running(marker); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(running(marker), "the command runs");
    await leaving.close();
    for (let i = 0; i < 100 && running(marker); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(running(marker), false, "the command ended with its client");
    // Ids are each connection's own: another client uses the same one; the server serves on.
    assert.deepEqual(await staying.request("command/exec", { command: ["echo", "still here"], processId: "long", cwd: ws.dir }), { exitCode: 0, stdout: "still here\n", stderr: "" });
    assertNoViolations(leaving, staying);
    await staying.close();
  } finally {
    server.child.kill("SIGTERM");
  }
});
