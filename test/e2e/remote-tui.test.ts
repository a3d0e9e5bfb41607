/**
 * The interactive UI against an app-server over a WebSocket (`codex-ts --remote ws://…`), in a
 * pseudo-terminal: a turn answered, a command approved in the UI and run on the server's side,
 * and the connection cut twice through a TCP relay: once while an approval waits (it is asked
 * again after the reconnection and answered), once while a turn finishes (its answer is shown
 * after the reconnection: nothing in flight is lost). `@` (through the server's `fuzzyFileSearch`,
 * in a folder without git too) and /diff look at the server's files;
 * /undo, /redo and Esc Esc put the server's files back; `/goal` and `/mcp` (with `/mcp login`)
 * work on the server's goal and MCP servers. A sub-agent's approval question (asked on the
 * sub-agent's own thread) is asked in the UI of the thread that spawned it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, connect, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { startWsAppServer } from "../support/app-server-client.js";
import { makeWorkspace } from "../support/cli.js";
import { customCall, fnCall, startModelServer, text, turn } from "../support/model-server.js";
import { KEY, type PtySession, remoteUi, sleep } from "../support/pty.js";
import { startOAuthFixture } from "../support/oauth-server.js";
import { collabCall, spawnedIn, startAgentServer } from "../support/agent-script.js";
import { STDIO_SERVER_PATH } from "../fixtures/mcp/stdio-server.js";

/** A TCP relay to the server that can cut every connection, and refuse new ones for a while. */
class Relay {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: number) {}

  async start(port = 0): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.target, "127.0.0.1");
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on("close", () => this.sockets.delete(s));
        s.on("error", () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
      client.on("close", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    this.server = server;
    this.port = (server.address() as { port: number }).port;
  }

  /** Cuts every connection; with `down`, nothing gets through until `start` again. */
  async cut(down: boolean): Promise<void> {
    const closed = down && this.server ? new Promise<void>((resolve) => this.server?.close(() => resolve())) : Promise.resolve();
    if (down) this.server = null;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    await closed;
  }
}

void test("the UI drives a thread on an app-server, and reconnects without losing the approval or the answer in flight", async () => {
  const ws = makeWorkspace({ git: false });
  execFileSync("git", ["init", "-q", ws.dir]);
  const made = join(ws.dir, "remote-made.txt");
  const model = await startModelServer([
    turn(text("Hello from the server side")),
    turn(fnCall("exec_command", { cmd: `echo written > ${made}`, login: false, sandbox_permissions: "require_escalated", justification: "Write the file?" }, "call_r")),
    turn(text("file written")),
    // Slow enough that the connection is down when it finishes.
    { ...turn(text("finished while you were away")), delayMs: 2500 },
  ]);
  writeFileSync(join(ws.home, "config.toml"), `openai_base_url = "${model.url}"\n`);
  const server = await startWsAppServer(ws.dir, ws.home);
  const relay = new Relay(server.port);
  await relay.start();
  const ui = remoteUi(relay.port, ws.dir);
  try {
    await ui.waitFor("Enter to send");
    await ui.waitFor(ws.dir);
    await ui.type("hi there");
    ui.write(KEY.enter);
    await ui.waitFor("Hello from the server side");

    await ui.type("write the file");
    ui.write(KEY.enter);
    await ui.waitFor("Run this command?");
    // The connection drops while the question waits: it is withdrawn, then asked again.
    await relay.cut(false);
    await ui.waitFor(/Lost the connection to the app-server/, { inTranscript: true });
    await ui.waitFor(/Reconnected to the app-server/, { inTranscript: true });
    await ui.waitFor("Run this command?");
    assert.equal(existsSync(made), false);
    ui.write("y");
    await ui.waitFor("file written");
    const transcript = await ui.transcript();
    assert.equal(transcript.split("› write the file").length - 1, 1, "the reconnection draws nothing twice");

    // `@` searches the server's files, and /diff shows the server's working tree.
    await ui.type("@remote-ma");
    await ui.waitFor("remote-made.txt");
    ui.write(KEY.escape);
    for (let i = 0; i < "@remote-ma".length; i++) ui.write(KEY.backspace);
    await ui.type("/diff");
    ui.write(KEY.enter);
    await ui.waitFor("+++ b/remote-made.txt");
    assert.equal(readFileSync(made, "utf8"), "written\n");

    // A turn that finishes while the connection is down.
    await ui.type("take your time");
    ui.write(KEY.enter);
    await ui.waitFor("Esc to interrupt");
    const port = relay.port;
    await relay.cut(true);
    await sleep(3500);
    await relay.start(port);
    await ui.waitFor("finished while you were away", { timeoutMs: 20_000 });
    await ui.waitFor("Enter to send");
    const screen = (await ui.screen()).join("\n");
    assert.doesNotMatch(screen, /Esc to interrupt/, "the turn is over");
    assert.equal(model.requests.length, 4);

    ui.write(KEY.ctrlD);
    assert.equal(await ui.exit(), 0);
    assert.match(ui.output, new RegExp(`codex-ts --remote ws://127\\.0\\.0\\.1:${port} resume`));
  } finally {
    ui.kill();
    await relay.cut(true);
    server.child.kill("SIGTERM");
    await model.close();
  }
});

void test("`@` over --remote searches the server's folder through fuzzyFileSearch, git or not", async () => {
  const ws = makeWorkspace({ git: false });
  mkdirSync(join(ws.dir, "notes", "deep"), { recursive: true });
  writeFileSync(join(ws.dir, "notes", "deep", "remote-only-plan.md"), "plan\n");
  writeFileSync(join(ws.dir, "README.md"), "readme\n");
  const model = await startModelServer([]);
  writeFileSync(join(ws.home, "config.toml"), `openai_base_url = "${model.url}"\n`);
  const server = await startWsAppServer(ws.dir, ws.home);
  const ui = remoteUi(server.port, ws.dir);
  try {
    await ui.waitFor("Enter to send");
    // Connected: the header names the server's folder (until then `@` would search this machine's).
    await ui.waitFor(ws.dir);
    await ui.type("@remplan");
    // The match comes from the server (no git there to list files), highlighted as a local one.
    await ui.waitFor("notes/deep/remote-only-plan.md");
    ui.write(KEY.tab);
    // Tab puts the path in the prompt, as a mention of a local file would be.
    await ui.waitFor(/^ notes\/deep\/remote-only-plan\.md\s*$/m);
    for (let i = 0; i < "notes/deep/remote-only-plan.md ".length; i++) ui.write(KEY.backspace);
    await ui.type("@READ");
    await ui.waitFor("README.md");
    ui.write(KEY.escape);
    ui.write(KEY.ctrlD);
    assert.equal(await ui.exit(), 0);
  } finally {
    ui.kill();
    server.child.kill("SIGTERM");
    await model.close();
  }
});

void test("/goal over --remote: the goal is the server's, its own turns run there, and a new UI sees it", async () => {
  const ws = makeWorkspace();
  const model = await startModelServer([turn(fnCall("update_goal", { status: "complete" }, "g1")), turn(text("The notes are written."))]);
  writeFileSync(join(ws.home, "config.toml"), `openai_base_url = "${model.url}"\n`);
  const server = await startWsAppServer(ws.dir, ws.home);
  const local = makeWorkspace();
  const ui = remoteUi(server.port, ws.dir, { local });
  let again: PtySession | null = null;
  try {
    await ui.waitFor("Enter to send");
    await ui.type("/goal Write the notes");
    ui.write(KEY.enter);
    await ui.waitFor("Goal (active): Write the notes");
    // The server works on it in a turn of its own; the model completes it.
    await ui.waitFor("The notes are written.");
    await ui.waitFor("Goal (complete): Write the notes");
    assert.equal(model.requests.length, 2, "a complete goal gets no more turns");
    ui.write(KEY.ctrlD);
    assert.equal(await ui.exit(), 0);
    const threadId = /resume ([0-9a-f-]{36})/.exec(ui.output)?.[1];
    assert.ok(threadId, ui.output);

    // Another UI resumes the thread: the goal comes from the server.
    again = remoteUi(server.port, ws.dir, { args: ["resume", threadId], local });
    await again.waitFor("Enter to send");
    await again.type("/goal");
    again.write(KEY.enter);
    await again.waitFor("Goal (complete): Write the notes");
    await again.type("/goal clear");
    again.write(KEY.enter);
    await again.waitFor("Goal cleared.");
    again.write(KEY.ctrlD);
    assert.equal(await again.exit(), 0);
  } finally {
    ui.kill();
    again?.kill();
    server.child.kill("SIGTERM");
    await model.close();
  }
});

void test("/mcp over --remote lists the server's MCP servers; /mcp login signs in through the server", async () => {
  const fx = await startOAuthFixture();
  const ws = makeWorkspace();
  const model = await startModelServer([]);
  const servers = [`[mcp_servers.fixture]`, `command = ${JSON.stringify(process.execPath)}`, `args = [${JSON.stringify(STDIO_SERVER_PATH)}, "--name", "fx"]`, `[mcp_servers.remote]`, `url = ${JSON.stringify(fx.url)}`, ""].join("\n");
  writeFileSync(join(ws.home, "config.toml"), `openai_base_url = "${model.url}"\n${servers}`);
  const server = await startWsAppServer(ws.dir, ws.home);
  // Wide enough for the authorization URL to stay on one line.
  const ui = remoteUi(server.port, ws.dir, { cols: 500, rows: 40 });
  try {
    await ui.waitFor("Enter to send");
    await ui.type("/mcp");
    ui.write(KEY.enter);
    await ui.waitFor(/fixture: ready/);
    await ui.waitFor(/tools: .*echo/);
    await ui.waitFor(/remote: failed · auth: not logged in/);

    await ui.type("/mcp login remote");
    ui.write(KEY.enter);
    const url = (await ui.waitFor(/Open this URL in a browser that can reach the app-server's machine: (http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)/)).match(/(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)/)?.[1];
    assert.ok(url);
    assert.match(await (await fetch(url)).text(), /Signed in/);
    await ui.waitFor("Signed in to remote");
    await ui.type("/mcp");
    ui.write(KEY.enter);
    await ui.waitFor(/remote: ready · auth: OAuth/);
    ui.write(KEY.ctrlD);
    assert.equal(await ui.exit(), 0);
  } finally {
    ui.kill();
    server.child.kill("SIGTERM");
    await model.close();
    await fx.close();
  }
});

void test("remote: /undo and /redo put the server's files back and forth; Esc Esc with both asks about a hand edit first", async () => {
  const ws = makeWorkspace({ git: false });
  const git = (...args: string[]): string => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: ws.dir, encoding: "utf8" });
  git("init", "-q", "-b", "main");
  writeFileSync(join(ws.dir, "keep.txt"), "alpha\nbeta\n");
  writeFileSync(join(ws.dir, "gone.txt"), "will be deleted\n");
  git("add", "-A");
  git("commit", "-q", "-m", "init");
  const patch = "*** Begin Patch\n*** Update File: keep.txt\n@@\n alpha\n-beta\n+BETA\n*** Add File: new.txt\n+new file\n*** Delete File: gone.txt\n*** End Patch\n";
  const model = await startModelServer([turn(customCall("apply_patch", patch, "p1")), turn(text("Patched on the server."))]);
  writeFileSync(join(ws.home, "config.toml"), `openai_base_url = "${model.url}"\nsandbox_mode = "workspace-write"\napproval_policy = "never"\n`);
  const server = await startWsAppServer(ws.dir, ws.home);
  const ui = remoteUi(server.port, ws.dir, { cols: 60, rows: 20 });
  try {
    await ui.waitFor("Enter to send");
    await ui.type("patch it");
    ui.write(KEY.enter);
    await ui.waitFor("Patched on the server.", { timeoutMs: 20_000 });
    await ui.waitFor("Enter to send");
    assert.equal(readFileSync(join(ws.dir, "keep.txt"), "utf8"), "alpha\nBETA\n");

    await ui.type("/undo");
    ui.write(KEY.enter);
    await ui.waitFor(/Undo[\s\S]*Restored 3 files\.[\s\S]*gone\.txt[\s\S]*keep\.txt[\s\S]*new\.txt/, { timeoutMs: 15_000 });
    assert.equal(readFileSync(join(ws.dir, "keep.txt"), "utf8"), "alpha\nbeta\n");
    assert.equal(existsSync(join(ws.dir, "new.txt")), false);
    await ui.type("/redo");
    ui.write(KEY.enter);
    await ui.waitFor(/Redo[\s\S]*Put back 3 files\./, { timeoutMs: 15_000 });
    assert.equal(readFileSync(join(ws.dir, "new.txt"), "utf8"), "new file\n");

    writeFileSync(join(ws.dir, "keep.txt"), "edited by hand\n");
    ui.write(KEY.escape);
    await ui.waitFor("Press Esc again");
    ui.write(KEY.escape);
    await ui.waitFor("Go back to an earlier message");
    ui.write(KEY.enter);
    await ui.waitFor("Restore what to how it was before this message?");
    ui.write("b");
    await ui.waitFor(/Changed since the turn: keep\.txt\.[\s\S]*Yes, overwrite/, { timeoutMs: 15_000 });
    assert.equal(readFileSync(join(ws.dir, "keep.txt"), "utf8"), "edited by hand\n");
    ui.write("y");
    await ui.waitFor(/Files restored[\s\S]*keep\.txt/, { timeoutMs: 15_000 });
    await ui.waitFor(/^ patch it\s*$/m);
    assert.equal(readFileSync(join(ws.dir, "keep.txt"), "utf8"), "alpha\nbeta\n");
    assert.equal(existsSync(join(ws.dir, "new.txt")), false);
    ui.write(KEY.ctrlD);
    assert.equal(await ui.exit(), 0);
  } finally {
    ui.kill();
    server.child.kill("SIGTERM");
    await model.close();
  }
});

void test("remote: a sub-agent's approval question, asked on its own thread, is asked in the UI of the thread that spawned it, again after a reconnection", async () => {
  const ws = makeWorkspace({ git: false });
  const made = join(ws.dir, "made-by-child.txt");
  const model = await startAgentServer({
    parent: [
      turn(collabCall("spawn_agent", { message: "make the file" }, "call_spawn")),
      (r) => turn(collabCall("wait_agent", { targets: [spawnedIn(r)[0]], timeout_ms: 60000 }, "call_wait")),
      turn(text("The helper made it.")),
    ],
    child: (_task, request) =>
      request.body.input?.some((i) => i.type === "function_call_output")
        ? turn(text("made it"))
        : turn(fnCall("exec_command", { cmd: `touch ${made}`, sandbox_permissions: "require_escalated", justification: "Create the file?" }, "child_call")),
  });
  writeFileSync(join(ws.home, "config.toml"), `openai_base_url = "${model.url}"\nmodel = "gpt-5.4"\napproval_policy = "on-request"\nsandbox_mode = "workspace-write"\n`);
  const server = await startWsAppServer(ws.dir, ws.home);
  const relay = new Relay(server.port);
  await relay.start();
  const ui = remoteUi(relay.port, ws.dir);
  try {
    await ui.waitFor("Enter to send");
    await ui.type("get a helper to make the file");
    ui.write(KEY.enter);
    await ui.waitFor("Run this command?");
    assert.match((await ui.screen()).join("\n"), /touch .*made-by-child\.txt/);
    await relay.cut(false);
    await ui.waitFor(/Reconnected to the app-server/, { inTranscript: true });
    await ui.waitFor("Run this command?");
    assert.equal(existsSync(made), false, "nothing runs before the answer");
    ui.write("y");
    await ui.waitFor("The helper made it.");
    assert.equal(existsSync(made), true, "the sub-agent ran the approved command on the server");
    assert.deepEqual(model.violations, []);
  } finally {
    ui.kill();
    await relay.cut(true);
    server.child.kill("SIGTERM");
    await model.close();
  }
});
