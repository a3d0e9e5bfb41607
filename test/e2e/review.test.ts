/**
 * Review mode against a scripted reviewer in real Git repositories: each target through
 * `exec review`, JSON and plain answers, what the reviewer is sent (its own instructions,
 * model, tools and history), an interrupted review, the parent thread told the result, and the
 * rollout keeping the review.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { exec, jsonLines, makeWorkspace, withServer } from "../support/cli.js";
import { text, turn } from "../support/model-server.js";
import { turnIdIn, until, withSession, timed } from "../support/session.js";
import { REVIEW_INSTRUCTIONS } from "../../src/core/review/review-prompt.js";
import { rolloutFileOf, readLines, threadIdOf } from "../support/rollout.js";

const git = (cwd: string, ...args: string[]): string =>
  execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } }).trim();

/** A repository with one commit on main and a branch `feature` adding a buggy function. */
function repository(): { dir: string; home: string; file: string; featureSha: string } {
  const ws = makeWorkspace({ git: false });
  git(ws.dir, "init", "-q", "-b", "main");
  const file = join(ws.dir, "calc.js");
  writeFileSync(file, "export function add(a, b) {\n  return a + b;\n}\n");
  git(ws.dir, "add", ".");
  git(ws.dir, "commit", "-qm", "add");
  git(ws.dir, "checkout", "-qb", "feature");
  writeFileSync(file, "export function add(a, b) {\n  return a + b;\n}\n\nexport function div(a, b) {\n  return a / b;\n}\n");
  git(ws.dir, "commit", "-qam", "div");
  return { ...ws, file, featureSha: git(ws.dir, "rev-parse", "HEAD") };
}

function findingsJson(file: string): string {
  return JSON.stringify({
    findings: [
      {
        title: "Guard against division by zero",
        body: "`div(1, 0)` returns Infinity; callers expect an error.",
        confidence_score: 0.8,
        priority: 1,
        code_location: { absolute_file_path: file, line_range: { start: 5, end: 7 } },
      },
    ],
    overall_correctness: "patch is incorrect",
    overall_explanation: "The new function misses a zero check.",
    overall_confidence_score: 0.7,
  });
}

void test("exec review --base: the reviewer gets its own instructions, model, tools and history; --json gives structured findings", async () => {
  const repo = repository();
  writeFileSync(join(repo.dir, "AGENTS.md"), "Always answer in French.\n");
  await withServer([turn(text(`Here is my review:\n\`\`\`json\n${findingsJson(repo.file)}\n\`\`\``))], async (server) => {
    const run = await exec(server, ["review", "--base", "main", "--json", "-c", 'review_model="gpt-5.1-codex"'], { cwd: repo.dir, home: repo.home });
    assert.equal(run.code, 0, run.stderr);
    const body = server.requests[0]?.body ?? {};
    assert.equal(body.model, "gpt-5.1-codex");
    const input = JSON.stringify(body.input);
    assert.ok(input.includes(JSON.stringify(REVIEW_INSTRUCTIONS).slice(1, 60)), "our review instructions come first");
    const base = git(repo.dir, "merge-base", "HEAD", "main");
    assert.ok(input.includes(`git diff ${base}`), "the prompt names the merge base");
    assert.ok(!input.includes("Always answer in French"), "no AGENTS.md in a review");
    assert.deepEqual(body.reasoning, { effort: "low", summary: "detailed" });
    const tools = (body.tools ?? []).map((t) => String(t.name ?? t.type));
    for (const absent of ["exec_command", "view_image", "web_search", "request_user_input"]) assert.ok(!tools.includes(absent), `${absent} is not offered`);
    const events = jsonLines(run.stdout);
    const items = events.filter((e) => e.type === "item.completed").map((e) => e.item as Record<string, unknown>);
    assert.ok(!items.some((i) => i.type === "agent_message"), "the reviewer's text is not streamed as a message");
    const finding = items.find((i) => i.type === "review_finding");
    assert.equal(finding?.title, "Guard against division by zero");
    assert.equal(finding?.priority, 1);
    assert.deepEqual(finding?.code_location, { absolute_file_path: repo.file, line_range: { start: 5, end: 7 } });
    const verdict = items.find((i) => i.type === "review");
    assert.deepEqual([verdict?.overall_correctness, verdict?.findings], ["patch is incorrect", 1]);
  });
});

void test("review --commit: human output shows file:line and the code; --fail-on-priority fails the run for CI", async () => {
  const repo = repository();
  await withServer([turn(text(findingsJson(repo.file))), turn(text(findingsJson(repo.file)))], async (server) => {
    const run = await exec(server, ["review", "--commit", repo.featureSha, "--title", "div"], { cwd: repo.dir, home: repo.home });
    assert.equal(run.code, 0, run.stderr);
    assert.match(JSON.stringify(server.requests[0]?.body.input), new RegExp(`git show ${repo.featureSha}`));
    assert.match(run.stdout, /Verdict: patch is incorrect/);
    assert.match(run.stdout, /\[P1\] Guard against division by zero\n {2}.*calc\.js:5-7\n {2}5 \| export function div\(a, b\) \{\n {2}6 \| {3}return a \/ b;\n {2}7 \| \}/);
    const strict = await exec(server, ["review", "--commit", repo.featureSha, "--fail-on-priority", "1"], { cwd: repo.dir, home: repo.home });
    assert.equal(strict.code, 1);
  });
});

void test("exec review -o writes the review as printed; --output-schema is accepted and leaves the request as it was", async () => {
  const repo = repository();
  const schema = join(repo.home, "schema.json");
  writeFileSync(schema, JSON.stringify({ type: "object", properties: { x: { type: "string" } }, required: ["x"], additionalProperties: false }));
  const out = join(repo.home, "review.txt");
  await withServer([turn(text(findingsJson(repo.file)))], async (server) => {
    const run = await exec(server, ["review", "--commit", repo.featureSha, "-o", out, "--output-schema", schema], { cwd: repo.dir, home: repo.home });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(readFileSync(out, "utf8"), run.stdout.replace(/\n$/, ""));
    assert.match(readFileSync(out, "utf8"), /\[P1\] Guard against division by zero/);
    assert.equal((server.requests[0]?.body.text as { format?: unknown } | undefined)?.format, undefined, "no structured-output format is sent for a review");
    assert.match(run.stderr, /--output-schema does not apply to a review/);
  });
});

void test("review --uncommitted and custom instructions; a plain-text answer becomes the explanation", async () => {
  const repo = repository();
  writeFileSync(join(repo.dir, "new.txt"), "untracked\n");
  await withServer([turn(text("Looks good to me.")), turn(text("Nothing to add."))], async (server) => {
    const run = await exec(server, ["review", "--uncommitted", "--json"], { cwd: repo.dir, home: repo.home });
    assert.equal(run.code, 0, run.stderr);
    assert.match(JSON.stringify(server.requests[0]?.body.input), /git diff HEAD/);
    const verdict = jsonLines(run.stdout).find((e) => (e.item as { type?: string } | undefined)?.type === "review")?.item as Record<string, unknown>;
    assert.deepEqual([verdict.overall_explanation, verdict.findings, verdict.overall_correctness], ["Looks good to me.", 0, ""]);
    const custom = await exec(server, ["review", "check error handling in calc.js"], { cwd: repo.dir, home: repo.home });
    assert.equal(custom.code, 0, custom.stderr);
    assert.match(JSON.stringify(server.requests[1]?.body.input), /check error handling in calc\.js/);
    assert.match(custom.stdout, /Nothing to add\.\n\nNo findings\./);
  });
});

void test("the parent thread is told the result and keeps its own history; an interrupted review says so", async () => {
  const repo = repository();
  await withSession(
    [turn(text("hi")), turn(text(findingsJson(repo.file))), turn(text("I will fix it.")), { ...turn(text("never")), hangAfterEvents: 1 }, turn(text("ok"))],
    async (session, server) => {
      const first = session.submit({ type: "user_input", items: [{ type: "text", text: "hello" }] });
      await until(session, first, "task_complete");
      const review = session.submit({ type: "review", review_request: { target: { type: "baseBranch", branch: "main" } } });
      const events = await until(session, review, "task_complete");
      const own = events.filter((e) => e.id === review).map((e) => e.msg.type);
      assert.deepEqual(own.filter((t) => t !== "token_count"), ["task_started", "entered_review_mode", "exited_review_mode", "task_complete"]);
      assert.ok(!JSON.stringify(server.requests[1]?.body.input).includes("hello"), "the reviewer does not see the conversation");

      const next = session.submit({ type: "user_input", items: [{ type: "text", text: "fix the first one" }] });
      await until(session, next, "task_complete");
      const parentInput = JSON.stringify(server.requests[2]?.body.input);
      assert.match(parentInput, /hello/);
      assert.match(parentInput, /<user_action>\\n {2}<context>[^<]*<\/context>\\n {2}<action>review<\/action>\\n {2}<results>\\n {2}The new function misses a zero check\.\\nReview comment:/);
      assert.match(parentInput, /Guard against division by zero — [^"]*calc\.js:5-7/);
      assert.ok(!parentInput.includes("Here is my review") && !parentInput.includes('\\"findings\\"'), "none of the reviewer's own messages");
      assert.equal(server.requests[2]?.body.model, "gpt-5.5");

      const interrupted = session.submit({ type: "review", review_request: { target: { type: "uncommittedChanges" } } });
      await server.waitForRequests(4);
      session.submit({ type: "interrupt" });
      const aborted = await until(session, interrupted, "turn_aborted");
      const tail = aborted.filter((e) => e.id === interrupted).map((e) => e.msg);
      assert.deepEqual(tail.slice(-2).map(timed), [
        { type: "exited_review_mode", review_output: null },
        { type: "turn_aborted", turn_id: turnIdIn(aborted, interrupted), reason: "interrupted" },
      ]);
      const after = session.submit({ type: "user_input", items: [{ type: "text", text: "and now?" }] });
      await until(session, after, "task_complete");
      assert.match(JSON.stringify(server.requests[4]?.body.input), /interrupted before it finished[^<]*<\/context>\\n {2}<action>review<\/action>\\n {2}<results>\\n {2}None\.\\n {2}<\/results>/);
    },
    { settings: { cwd: repo.dir } },
  );
});

void test("the rollout keeps the review's events and the parent's result message, not the reviewer's own items", async () => {
  const repo = repository();
  await withServer([turn(text(findingsJson(repo.file)))], async (server) => {
    const run = await exec(server, ["review", "--base", "main", "--json"], { cwd: repo.dir, home: repo.home });
    assert.equal(run.code, 0, run.stderr);
    const lines = readLines(rolloutFileOf(repo.home, threadIdOf(jsonLines(run.stdout))));
    const events = lines.filter((l) => l.type === "event_msg").map((l) => (l.payload as { type: string }).type);
    assert.ok(events.includes("entered_review_mode") && events.includes("exited_review_mode"));
    const items = JSON.stringify(lines.filter((l) => l.type === "response_item"));
    assert.match(items, /<user_action>/);
    assert.ok(!items.includes("overall_confidence_score"), "the reviewer's raw answer is not recorded");
    assert.ok(!readFileSync(rolloutFileOf(repo.home, threadIdOf(jsonLines(run.stdout))), "utf8").includes("careful senior engineer"), "nor its instructions");
  });
});
