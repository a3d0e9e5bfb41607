/**
 * `codex-ts acp`: tools as the editor sees them. The editor's own MCP server joins the session;
 * an MCP tool that may change things waits for a permission, "reject always" is remembered, and a
 * server's question becomes an elicitation form; a server that does not start is a notice (or a
 * line in the agent log). Command output goes to the editor's terminal when it offers one (Zed's
 * `terminal_output` extension), and a replay shows none; a command cut off by a cancel ends
 * failed, live and replayed. Patches ask with their diff; the plan is a checklist. Signing in: a
 * session without credentials asks for authentication, and `authenticate` saves a key or runs
 * the browser sign-in; an editor that runs terminals is offered the terminal sign-in. Every message of both sides is checked against the ACP schema
 * (test/support/acp-client.ts).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { agentText, callUpdates, checked, configFor, openSession, startAcpClient, updatesOf, type AcpTestClient } from "../support/acp-client.js";
import { CLI_PATH, makeWorkspace, testEnv } from "../support/cli.js";
import { callOutputText, customCall, fnCall, startModelServer, text, turn } from "../support/model-server.js";
import { STDIO_SERVER_PATH } from "../fixtures/mcp/stdio-server.js";
import { follow, get } from "../support/browser.js";
import { startIssuer } from "../support/issuer.js";

void test("acp: the editor's MCP server joins the session; a destructive tool asks, reject always is remembered, a server's question is a form", async () => {
  const server = await startModelServer([
    turn(fnCall("mcp__fx__echo", { text: "hi" }, "m1")),
    turn(fnCall("mcp__fx__delete_everything", {}, "m2")),
    turn(fnCall("mcp__fx__delete_everything", {}, "m3")),
    turn(fnCall("mcp__fx__ask", {}, "m4")),
    turn(text("all done")),
  ]);
  const ws = makeWorkspace();
  // gpt-5.4 is offered MCP tools up front (gpt-5.5 finds them with tool_search).
  writeFileSync(join(ws.home, "config.toml"), configFor(server, 'model = "gpt-5.4"\napproval_policy = "on-request"\nsandbox_mode = "workspace-write"\n'));
  const forms: string[] = [];
  const { acp, sessionId } = await openSession(
    ws,
    {
      capabilities: { elicitation: { form: {} } },
      permission: (request) => {
        const reject = request.options.find((o) => o.kind === "reject_always");
        return { outcome: reject ? { outcome: "selected", optionId: reject.optionId } : { outcome: "cancelled" } };
      },
      elicitation: (request) => {
        forms.push(request.message);
        return { action: "accept", content: { colour: "red" } };
      },
    },
    [{ name: "fx", command: process.execPath, args: [STDIO_SERVER_PATH, "--name", "fx"], env: [] }],
  );
  await checked(acp, server, async () => {
    const result = await acp.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "use the tools" }] });
    assert.equal(result.stopReason, "end_turn");
    const updates = updatesOf(acp);

    const echo = callUpdates(updates, "m1");
    assert.deepEqual(echo.map((u) => u.status), ["in_progress", "completed"]);
    assert.equal(echo[0]?.title, "fx: echo");
    assert.deepEqual(echo[1]?.content, [{ type: "content", content: { type: "text", text: "echo: hi" } }]);

    assert.equal(acp.permissions.length, 1, "the second destructive call was refused without asking");
    assert.equal(acp.permissions[0]?.toolCall.toolCallId, "m2");
    assert.match(callOutputText(server, "m2"), /user rejected MCP tool call/);
    assert.match(callOutputText(server, "m3"), /user rejected MCP tool call/);
    assert.equal(callUpdates(updates, "m2").at(-1)?.status, "failed");
    assert.equal(callUpdates(updates, "m3").at(-1)?.status, "failed");

    assert.deepEqual(forms, ["fx: Which colour?"]);
    assert.match(callOutputText(server, "m4"), /colour.*red/);
    assert.equal(agentText(acp.updates), "all done");
  });
  await server.close();
});

void test("acp: an editor MCP server that does not start is a notice for an editor that takes notices, a line in the agent log otherwise", async () => {
  const server = await startModelServer([]);
  const ws = makeWorkspace();
  writeFileSync(join(ws.home, "config.toml"), configFor(server));
  const broken = [{ name: "gone", command: join(ws.dir, "no-such-program"), args: [], env: [] }];
  const failed = (acp: AcpTestClient) =>
    updatesOf(acp).filter((u) => u.sessionUpdate === "notice" && u.severity === "warning" && u.title.startsWith("MCP server gone did not start"));
  const waitFor = async (ready: () => boolean): Promise<void> => {
    for (let i = 0; i < 250 && !ready(); i++) await new Promise((r) => setTimeout(r, 20));
  };

  const withNotices = (await openSession(ws, { capabilities: { session: { notices: {} } } }, broken)).acp;
  await checked(withNotices, server, async () => {
    await waitFor(() => failed(withNotices).length > 0);
    assert.equal(failed(withNotices).length, 1, updatesOf(withNotices).map((u) => u.sessionUpdate).join(","));
  });

  const without = (await openSession(ws, {}, broken)).acp;
  await checked(without, server, async () => {
    await waitFor(() => without.stderr().includes("MCP server gone did not start"));
    assert.match(without.stderr(), /warning: MCP server gone did not start/);
    assert.equal(updatesOf(without).some((u) => u.sessionUpdate === "notice"), false, "no notice for an editor that did not ask for them");
  });
  await server.close();
});

void test("acp: with the terminal_output extension a command's output streams to the editor's terminal, with its exit", async () => {
  const server = await startModelServer([turn(fnCall("exec_command", { cmd: "printf 'one\\ntwo\\n'", yield_time_ms: 5000 }, "c1")), turn(text("printed"))]);
  const ws = makeWorkspace();
  writeFileSync(join(ws.home, "config.toml"), configFor(server, 'approval_policy = "never"\nsandbox_mode = "workspace-write"\n'));
  const { acp, sessionId } = await openSession(ws, { capabilities: { _meta: { terminal_output: true } } });
  await checked(acp, server, async () => {
    await acp.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "print" }] });
    const calls = callUpdates(updatesOf(acp), "c1");
    const first = calls[0];
    assert.deepEqual(first?.content, [{ type: "terminal", terminalId: "c1" }]);
    assert.deepEqual(first?._meta, { terminal_info: { terminal_id: "c1", cwd: ws.dir } });
    const streamed = calls.flatMap((u) => {
      const output = u._meta?.terminal_output as { data?: string } | undefined;
      return output?.data !== undefined ? [output.data] : [];
    });
    assert.equal(streamed.join(""), "one\ntwo\n");
    const last = calls.at(-1);
    assert.equal(last?.status, "completed");
    assert.deepEqual(last?._meta, { terminal_exit: { terminal_id: "c1", exit_code: 0, signal: null } });
  });

  // Loaded later, the command has no terminal any more: its recorded output is the call's text.
  const again = startAcpClient({ cwd: ws.dir, home: ws.home });
  await checked(again, server, async () => {
    await again.connection.agent.request("initialize", { protocolVersion: 1, clientCapabilities: { _meta: { terminal_output: true } } });
    await again.connection.agent.request("session/load", { sessionId, cwd: ws.dir, mcpServers: [] });
    const calls = callUpdates(updatesOf(again), "c1");
    assert.deepEqual(
      calls.filter((u) => u._meta !== undefined || u.content?.some((c) => c.type === "terminal")),
      [],
      "no terminal is shown for a replayed command",
    );
    assert.equal(calls.at(-1)?.status, "completed");
    assert.deepEqual(calls.at(-1)?.content, [{ type: "content", content: { type: "text", text: "```\none\ntwo\n```" } }]);
  });
  await server.close();
});

void test("acp: a command cut off by session/cancel ends failed, and so it is replayed when the session is loaded", async () => {
  const server = await startModelServer([turn(fnCall("exec_command", { cmd: "echo started; sleep 30", yield_time_ms: 20000 }, "c1")), turn(text("unused"))]);
  const ws = makeWorkspace();
  writeFileSync(join(ws.home, "config.toml"), configFor(server, 'approval_policy = "never"\nsandbox_mode = "workspace-write"\n'));
  const capabilities = { _meta: { terminal_output: true } };
  const { acp, sessionId } = await openSession(ws, { capabilities });
  await checked(acp, server, async () => {
    const prompt = acp.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "wait" }] });
    const printed = (): boolean => callUpdates(updatesOf(acp), "c1").some((u) => (u._meta?.terminal_output as { data?: string } | undefined)?.data?.includes("started") === true);
    for (let i = 0; i < 500 && !printed(); i++) await new Promise((r) => setTimeout(r, 20));
    assert.ok(printed(), "the command started and printed");
    await acp.connection.agent.notify("session/cancel", { sessionId });
    assert.equal((await prompt).stopReason, "cancelled");
    assert.equal(callUpdates(updatesOf(acp), "c1").at(-1)?.status, "failed");
  });

  const again = startAcpClient({ cwd: ws.dir, home: ws.home });
  await checked(again, server, async () => {
    await again.connection.agent.request("initialize", { protocolVersion: 1, clientCapabilities: capabilities });
    await again.connection.agent.request("session/load", { sessionId, cwd: ws.dir, mcpServers: [] });
    const calls = callUpdates(updatesOf(again), "c1");
    assert.deepEqual(calls.map((u) => u.status), ["in_progress", "failed"], "the replayed command does not stay running");
    assert.deepEqual(calls.filter((u) => u._meta !== undefined), [], "no terminal is shown for a replayed command");
  });
  await server.close();
});

void test("acp: a session without credentials asks for authentication; authenticate saves the key it is given", async () => {
  const server = await startModelServer([turn(text("signed in"))]);
  const ws = makeWorkspace();
  writeFileSync(join(ws.home, "config.toml"), configFor(server));
  const acp = startAcpClient({ cwd: ws.dir, home: ws.home, env: { OPENAI_API_KEY: undefined } });
  await checked(acp, server, async () => {
    await acp.connection.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    await assert.rejects(acp.connection.agent.request("session/new", { cwd: ws.dir, mcpServers: [] }), (err: Error & { code?: number }) => {
      assert.equal(err.code, -32000);
      assert.match(err.message, /No API key found/);
      return true;
    });
    await assert.rejects(acp.connection.agent.request("authenticate", { methodId: "api-key" }), /OPENAI_API_KEY is not set/);
    await acp.connection.agent.request("authenticate", { methodId: "api-key", _meta: { apiKey: "sk-from-the-editor" } });
    assert.equal((JSON.parse(readFileSync(join(ws.home, "auth.json"), "utf8")) as { OPENAI_API_KEY: string }).OPENAI_API_KEY, "sk-from-the-editor");
    const session = await acp.connection.agent.request("session/new", { cwd: ws.dir, mcpServers: [] });
    const result = await acp.connection.agent.request("session/prompt", { sessionId: session.sessionId, prompt: [{ type: "text", text: "hello" }] });
    assert.equal(result.stopReason, "end_turn");
    assert.equal(server.requests[0]?.headers.authorization, "Bearer sk-from-the-editor");
  });
  await server.close();
});


void test("acp: authenticate with ChatGPT runs the browser sign-in (its address in the agent's log); the session then uses the login", async () => {
  const issuer = await startIssuer();
  const server = await startModelServer([turn(text("hello from the backend"))]);
  const ws = makeWorkspace();
  writeFileSync(join(ws.home, "config.toml"), `chatgpt_base_url = "${server.chatgptBaseUrl}"\n`);
  const acp = startAcpClient({
    cwd: ws.dir,
    home: ws.home,
    env: { OPENAI_API_KEY: undefined, CODEX_TS_LOGIN_ISSUER: issuer.url, CODEX_TS_LOGIN_PORT: "0", BROWSER: "true" },
  });
  try {
    await checked(acp, server, async () => {
      await acp.connection.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const signedIn = acp.connection.agent.request("authenticate", { methodId: "chatgpt" });
      let authorize: string | undefined;
      for (let i = 0; i < 250 && authorize === undefined; i++) {
        authorize = /to sign in with ChatGPT, open (\S+)/.exec(acp.stderr())?.[1];
        if (authorize === undefined) await new Promise((r) => setTimeout(r, 20));
      }
      if (authorize === undefined) throw new Error(`no sign-in address in the agent's log:\n${acp.stderr()}`);
      assert.ok(authorize.startsWith(`${issuer.url}/oauth/authorize?`));
      // The test plays the browser: the issuer redirects to the agent's callback, then to its page.
      const callback = follow(authorize, (await get(authorize)).location);
      const page = await get(follow(callback, (await get(callback)).location));
      assert.match(page.body, /You are signed in with your ChatGPT account/);
      await signedIn;
      assert.equal((JSON.parse(readFileSync(join(ws.home, "auth.json"), "utf8")) as { auth_mode: string }).auth_mode, "chatgpt");

      const session = await acp.connection.agent.request("session/new", { cwd: ws.dir, mcpServers: [] });
      const result = await acp.connection.agent.request("session/prompt", { sessionId: session.sessionId, prompt: [{ type: "text", text: "hi" }] });
      assert.equal(result.stopReason, "end_turn");
      assert.equal(server.requests[0]?.headers.authorization, `Bearer ${issuer.validAccessToken}`);
      // Already signed in: nothing opens again.
      await acp.connection.agent.request("authenticate", { methodId: "chatgpt" });
    });
  } finally {
    await server.close();
    await issuer.close();
  }
});

void test("acp: a patch waits for a permission showing its diff; allow always covers the same file; the plan is a checklist", async () => {
  const edit = (to: string): string => `*** Begin Patch\n*** Update File: notes.txt\n@@\n-${to === "two" ? "one" : "two"}\n+${to}\n*** End Patch\n`;
  const server = await startModelServer([
    turn(fnCall("update_plan", { plan: [{ step: "edit the notes", status: "in_progress" }, { step: "say so", status: "pending" }] }, "u1"), customCall("apply_patch", edit("two"), "p1")),
    turn(customCall("apply_patch", edit("three"), "p2")),
    turn(text("edited twice")),
  ]);
  const ws = makeWorkspace();
  // A codex-tuned family: it is offered update_plan (the current one is not).
  writeFileSync(join(ws.home, "config.toml"), configFor(server, 'model = "gpt-5.2-codex"\napproval_policy = "untrusted"\nsandbox_mode = "workspace-write"\n'));
  writeFileSync(join(ws.dir, "notes.txt"), "one\n");
  const { acp, sessionId } = await openSession(ws, {
    permission: (request) => {
      const always = request.options.find((o) => o.kind === "allow_always");
      return { outcome: always ? { outcome: "selected", optionId: always.optionId } : { outcome: "cancelled" } };
    },
  });
  await checked(acp, server, async () => {
    assert.equal((await acp.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "edit" }] })).stopReason, "end_turn");
    assert.equal(readFileSync(join(ws.dir, "notes.txt"), "utf8"), "three\n");
    assert.equal(acp.permissions.length, 1, "the second patch to the same file was allowed for the session");
    const asked = acp.permissions[0]?.toolCall;
    assert.deepEqual([asked?.toolCallId, asked?.kind, asked?.title], ["p1", "edit", "Edit notes.txt"]);
    assert.deepEqual(asked?.content, [{ type: "diff", path: join(ws.dir, "notes.txt"), oldText: "one", newText: "two" }]);
    assert.deepEqual(asked?.locations, [{ path: join(ws.dir, "notes.txt"), line: 1 }]);
    const plan = updatesOf(acp).find((u) => u.sessionUpdate === "plan");
    assert.deepEqual(plan?.sessionUpdate === "plan" ? plan.entries : null, [
      { content: "edit the notes", priority: "medium", status: "in_progress" },
      { content: "say so", priority: "medium", status: "pending" },
    ]);
    assert.deepEqual(callUpdates(updatesOf(acp), "p2").map((u) => u.status), ["in_progress", "completed"]);
  });
  await server.close();
});

void test("acp: an editor that runs terminals is offered the terminal sign-in, which runs `codex-ts acp --login` there", async () => {
  const issuer = await startIssuer();
  const server = await startModelServer([]);
  const ws = makeWorkspace();
  writeFileSync(join(ws.home, "config.toml"), configFor(server));
  const acp = startAcpClient({ cwd: ws.dir, home: ws.home });
  let args: string[] = [];
  await checked(acp, server, async () => {
    const init = await acp.connection.agent.request("initialize", { protocolVersion: 1, clientCapabilities: { auth: { terminal: true } } });
    const terminal = init.authMethods?.find((m) => "type" in m && m.type === "terminal");
    assert.ok(terminal && "args" in terminal, JSON.stringify(init.authMethods));
    assert.equal(terminal.id, "chatgpt-terminal");
    args = terminal.args ?? [];
    await assert.rejects(acp.connection.agent.request("authenticate", { methodId: "chatgpt-terminal" }), /runs in a terminal/);
  });

  // The editor runs the agent's command line with those arguments in a terminal; the test plays the user and the browser.
  const child = spawn(process.execPath, [CLI_PATH, "acp", ...args], {
    cwd: ws.dir,
    env: testEnv(ws.home, { CODEX_TS_LOGIN_ISSUER: issuer.url, CODEX_TS_LOGIN_PORT: "0", BROWSER: "true" }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let printed = "";
  child.stdout.on("data", (d: Buffer) => (printed += d.toString()));
  child.stderr.on("data", (d: Buffer) => (printed += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  try {
    let authorize: string | undefined;
    for (let i = 0; i < 250 && authorize === undefined; i++) {
      authorize = printed.split("\n").find((l) => l.startsWith(`${issuer.url}/oauth/authorize?`));
      if (authorize === undefined) await new Promise((r) => setTimeout(r, 20));
    }
    if (authorize === undefined) throw new Error(`no sign-in address printed:\n${printed}`);
    const callback = follow(authorize, (await get(authorize)).location);
    await get(follow(callback, (await get(callback)).location));
    assert.equal(await exited, 0, printed);
    assert.equal((JSON.parse(readFileSync(join(ws.home, "auth.json"), "utf8")) as { auth_mode: string }).auth_mode, "chatgpt");
  } finally {
    child.kill();
    await server.close();
    await issuer.close();
  }
});
