/**
 * Command rules through the real core: a table of rules × approval policies (who is asked, what
 * runs, what the model reads), an approved "always allow this prefix" written to default.rules
 * and used at once, a broken rules file stopping exec, and `codex-ts execpolicy check`.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Event } from "../../src/protocol/events.js";
import type { AskForApproval } from "../../src/protocol/policy.js";
import { sandboxPolicyFor } from "../../src/protocol/policy.js";
import { ExecPolicy } from "../../src/approval/exec-policy/policy.js";
import { fnCall, text, turn } from "../support/model-server.js";
import { until, withSession, untilAsked, askedRequest, requestsIn } from "../support/session.js";
import { exec, makeWorkspace, runCli, withServer } from "../support/cli.js";

const RULES = `
prefix_rule(pattern = ["touch", "forbidden.txt"], decision = "forbidden", justification = "not that file")
prefix_rule(pattern = ["touch", "asked.txt"], decision = "prompt")
prefix_rule(pattern = ["touch", "allowed.txt"])
`;

interface Case {
  file: string;
  policy: AskForApproval;
  /** Whether the user is asked (and answers "approved"). */
  asked: boolean;
  ran: boolean;
  output?: RegExp;
}

const CASES: Case[] = [
  { file: "forbidden.txt", policy: "never", asked: false, ran: false, output: /command forbidden by an exec policy rule: not that file/ },
  { file: "forbidden.txt", policy: "untrusted", asked: false, ran: false, output: /forbidden by an exec policy rule/ },
  { file: "asked.txt", policy: "never", asked: false, ran: false, output: /requires approval for this command, and approval policy `never` cannot ask/ },
  { file: "asked.txt", policy: "on-request", asked: true, ran: true },
  { file: "asked.txt", policy: "untrusted", asked: true, ran: true },
  { file: "allowed.txt", policy: "untrusted", asked: false, ran: true },
  { file: "allowed.txt", policy: "never", asked: false, ran: true },
  { file: "unruled.txt", policy: "untrusted", asked: true, ran: true },
  { file: "unruled.txt", policy: "on-request", asked: false, ran: true },
];

void test("rules decide before the approval policy: forbidden refuses, prompt always asks, allow does not ask", async () => {
  for (const c of CASES) {
    const policy = ExecPolicy.empty();
    policy.addFile("team.rules", RULES);
    const cwd = mkdtempSync(join(tmpdir(), "codex-ts-rules-"));
    await withSession(
      [turn(fnCall("exec_command", { cmd: `touch ${c.file}` }, "c1")), turn(text("done"))],
      async (session, server) => {
        const id = session.submit({ type: "user_turn", items: [{ type: "text", text: "go" }], approval_policy: c.policy });
        const seen: Event[] = [];
        if (c.asked) {
          await untilAsked(session, id, "exec_approval_request", seen);
          session.submit({ type: "exec_approval", id: "c1", decision: "approved" });
        }
        await until(session, id, "task_complete", seen);
        const label = `${c.file} under ${c.policy}`;
        assert.equal(requestsIn(seen).filter((r) => r.type === "exec_approval_request").length, c.asked ? 1 : 0, label);
        assert.equal(existsSync(join(cwd, c.file)), c.ran, label);
        const output = server.requests[1]?.body.input?.find((i) => i.type === "function_call_output");
        if (c.output) assert.match(String((output as { output?: unknown } | undefined)?.output), c.output, label);
      },
      { settings: { cwd, sandboxPolicy: sandboxPolicyFor("workspace-write") }, execPolicy: { policy, codexHome: cwd } },
    );
  }
});

void test("approving with the proposed prefix writes it to default.rules; the same prefix then runs without asking", async () => {
  const home = mkdtempSync(join(tmpdir(), "codex-ts-amend-"));
  const cwd = mkdtempSync(join(tmpdir(), "codex-ts-amend-cwd-"));
  const policy = ExecPolicy.loadFolders([join(home, "rules")]);
  await withSession(
    [
      turn(fnCall("exec_command", { cmd: "touch first.txt", prefix_rule: ["touch"] }, "c1")),
      turn(text("one")),
      turn(fnCall("exec_command", { cmd: "touch second.txt" }, "c2")),
      turn(text("two")),
    ],
    async (session) => {
      const first = session.submit({ type: "user_turn", items: [{ type: "text", text: "a" }], approval_policy: "untrusted" });
      const asked = await untilAsked(session, first, "exec_approval_request");
      const request = askedRequest(asked);
      assert.ok(request?.type === "exec_approval_request");
      assert.deepEqual(request.proposed_execpolicy_amendment, ["touch"]);
      session.submit({ type: "exec_approval", id: "c1", decision: { approved_execpolicy_amendment: { proposed_execpolicy_amendment: ["touch"] } } });
      await until(session, first, "task_complete", asked);
      assert.ok(existsSync(join(cwd, "first.txt")));
      assert.equal(readFileSync(join(home, "rules", "default.rules"), "utf8"), 'prefix_rule(pattern=["touch"], decision="allow")\n');

      const second = session.submit({ type: "user_turn", items: [{ type: "text", text: "b" }], approval_policy: "untrusted" });
      const events = await until(session, second, "task_complete");
      assert.equal(requestsIn(events).filter((r) => r.type === "exec_approval_request").length, 0, "the new rule allows it");
      assert.ok(existsSync(join(cwd, "second.txt")));
    },
    { settings: { cwd, sandboxPolicy: sandboxPolicyFor("workspace-write") }, execPolicy: { policy, codexHome: home } },
  );
});

void test("exec reads $CODEX_HOME/rules; a broken file stops it before any model request, naming file and line", async () => {
  const ws = makeWorkspace();
  mkdirSync(join(ws.home, "rules"));
  writeFileSync(join(ws.home, "rules", "team.rules"), 'prefix_rule(pattern = ["touch"], decision = "forbidden")\n');
  await withServer([turn(fnCall("exec_command", { cmd: "touch x.txt" }, "c1")), turn(text("ok"))], async (server) => {
    const run = await exec(server, ["-s", "workspace-write", "go"], { cwd: ws.dir, home: ws.home });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(existsSync(join(ws.dir, "x.txt")), false);
    assert.match(JSON.stringify(server.requests[1]?.body.input), /command forbidden by an exec policy rule/);
  });
  writeFileSync(join(ws.home, "rules", "team.rules"), 'prefix_rule(\n  pattern = ["touch"],\n  decision = "sometimes",\n)\n');
  await withServer([], async (server) => {
    const run = await exec(server, ["go"], { cwd: ws.dir, home: ws.home });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /failed to load rules: .*team\.rules:1:1: invalid decision: sometimes/);
    assert.equal(server.requests.length, 0);
  });
});

void test("exec with the sandbox bypassed still refuses rm -rf where no rule allows it, as the reference does; a rule allowing rm lets it run", async () => {
  const ws = makeWorkspace();
  mkdirSync(join(ws.dir, "victim"));
  writeFileSync(join(ws.dir, "victim", "f"), "keep\n");
  const remove = turn(fnCall("exec_command", { cmd: "rm -rf victim", yield_time_ms: 5000 }, "c1"));
  await withServer([remove, turn(text("ok"))], async (server) => {
    const run = await exec(server, ["--dangerously-bypass-approvals-and-sandbox", "--json", "go"], { cwd: ws.dir, home: ws.home });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(readFileSync(join(ws.dir, "victim", "f"), "utf8"), "keep\n");
    assert.match(JSON.stringify(server.requests[1]?.body.input), /rm -rf victim.*rm with a force option/);
  });
  mkdirSync(join(ws.home, "rules"));
  writeFileSync(join(ws.home, "rules", "team.rules"), 'prefix_rule(pattern = ["rm"], decision = "allow")\n');
  await withServer([remove, turn(text("ok"))], async (server) => {
    const run = await exec(server, ["--dangerously-bypass-approvals-and-sandbox", "go"], { cwd: ws.dir, home: ws.home });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(existsSync(join(ws.dir, "victim")), false);
  });
});

void test("execpolicy check prints the matched rules and the decision as the reference does", async () => {
  const ws = makeWorkspace();
  const rules = join(ws.dir, "a.rules");
  writeFileSync(rules, 'prefix_rule(pattern = ["git", ["push", "fetch"]], decision = "prompt", justification = "network")\nprefix_rule(pattern = ["git", "push"], decision = "forbidden")\n');
  const run = await runCli(["execpolicy", "check", "--rules", rules, "--", "git", "push", "origin"], { cwd: ws.dir, home: ws.home });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(
    run.stdout,
    '{"matchedRules":[{"prefixRuleMatch":{"matchedPrefix":["git","push"],"decision":"prompt","justification":"network"}},{"prefixRuleMatch":{"matchedPrefix":["git","push"],"decision":"forbidden"}}],"decision":"forbidden"}\n',
  );
  const none = await runCli(["execpolicy", "check", "--rules", rules, "--", "ls"], { cwd: ws.dir, home: ws.home });
  assert.equal(none.stdout, '{"matchedRules":[]}\n');
  // Without --rules: the rules a session would use.
  mkdirSync(join(ws.home, "rules"));
  writeFileSync(join(ws.home, "rules", "default.rules"), 'prefix_rule(pattern=["ls"], decision="allow")\n');
  const fromHome = await runCli(["execpolicy", "check", "--", "ls", "-la"], { cwd: ws.dir, home: ws.home });
  assert.equal(fromHome.stdout, '{"matchedRules":[{"prefixRuleMatch":{"matchedPrefix":["ls"],"decision":"allow"}}],"decision":"allow"}\n');
});
