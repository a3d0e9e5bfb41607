import { test } from "node:test";
import assert from "node:assert/strict";
import { BUILTIN_COMMANDS, parseSlash, promptCommand, type SlashContext } from "./slash-commands.js";
import { SlashCompletions } from "./composer.js";
import type { Op } from "../protocol/ops.js";

void test("parseSlash splits the name from its arguments", () => {
  assert.deepEqual(parseSlash("/review look at auth"), { name: "review", args: "look at auth" });
  assert.deepEqual(parseSlash("/prompts:fix 12"), { name: "prompts:fix", args: "12" });
  assert.equal(parseSlash("not a command"), null);
});

void test("the table has every command the UI documents, /compact and /copy included; /approvals is /permissions", () => {
  const names = BUILTIN_COMMANDS.flatMap((c) => [c.name, ...(c.aliases ?? [])]);
  for (const n of ["model", "permissions", "approvals", "new", "resume", "fork", "diff", "status", "init", "mention", "mcp", "quit", "exit", "review", "skills", "compact", "copy"]) assert.ok(names.includes(n), n);
  assert.equal(BUILTIN_COMMANDS.find((c) => c.aliases?.includes("approvals"))?.name, "permissions");
});

void test("the popup filters the table, prefix matches first", async () => {
  const completions = new SlashCompletions(() => BUILTIN_COMMANDS);
  const s = await completions.getSuggestions(["/re"], 0, 3);
  assert.deepEqual(s?.items.map((i) => i.value).slice(0, 2), ["/resume", "/review"]);
  assert.equal(await completions.getSuggestions(["hello /re"], 0, 9), null);
  const applied = completions.applyCompletion(["/re"], 0, 3, { value: "/review", label: "/review" }, "/re");
  assert.deepEqual(applied, { lines: ["/review "], cursorLine: 0, cursorCol: 8 });
});

/** A context that records what commands submit and send. */
function recorder(): { ctx: SlashContext; ops: Op[]; sent: string[]; compacted: string[] } {
  const ops: Op[] = [];
  const sent: string[] = [];
  const compacted: string[] = [];
  const ctx = {
    cwd: "/nonexistent",
    model: "gpt-5.5",
    effort: null,
    submit: (op: Op) => (ops.push(op), "1"),
    sendUserText: (t: string) => sent.push(t),
    print: () => undefined,
    compact: (instructions: string) => compacted.push(instructions),
  } as unknown as SlashContext;
  return { ctx, ops, sent, compacted };
}

void test("/compact (with what to keep), /skills and /review with instructions submit their ops; /init sends a prompt", async () => {
  const { ctx, ops, sent, compacted } = recorder();
  const run = (name: string, args = "") => BUILTIN_COMMANDS.find((c) => c.name === name)?.run(ctx, args);
  await run("compact", "keep the test names");
  assert.deepEqual(compacted, ["keep the test names"]);
  await run("skills");
  await run("review", "check the parser");
  await run("init");
  assert.deepEqual(ops, [{ type: "list_skills" }, { type: "review", review_request: { target: { type: "custom", instructions: "check the parser" } } }]);
  assert.match(sent[0] ?? "", /AGENTS\.md/);
});

void test("/prompts:NAME fills the placeholders from what follows", async () => {
  const { ctx, sent } = recorder();
  const cmd = promptCommand({ name: "fix", content: "Fix issue $1 in $2 ($ARGUMENTS)", description: "fix one" });
  assert.equal(cmd.name, "prompts:fix");
  await cmd.run(ctx, "42 parser.ts");
  assert.equal(sent[0], "Fix issue 42 in parser.ts (42 parser.ts)");
});

void test("a completion picked after more was typed replaces what is typed, not an older prefix", () => {
  const completions = new SlashCompletions(() => BUILTIN_COMMANDS);
  // Suggestions computed for "/st" are applied once "/status" is on the line.
  const applied = completions.applyCompletion(["/status"], 0, 7, { value: "/status", label: "/status" }, "/st");
  assert.deepEqual(applied, { lines: ["/status "], cursorLine: 0, cursorCol: 8 });
  // The list for "/co" had /compact highlighted; "/copy" was typed in full before Enter.
  assert.deepEqual(completions.applyCompletion(["/copy"], 0, 5, { value: "/compact", label: "/compact" }, "/co").lines, ["/copy "]);
});
