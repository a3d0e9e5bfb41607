/**
 * Skills and custom prompts end to end: the skills list reaches the model with the user
 * instructions, a mentioned skill's file follows the user's message, a broken skill is a
 * warning, and the list ops answer a UI.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exec, makeWorkspace, withServer } from "../support/cli.js";
import { text, turn } from "../support/model-server.js";
import { until, withSession } from "../support/session.js";

function writeSkill(dir: string, content: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "SKILL.md"), content);
}

void test("exec: the skills list is in the instructions; a $mention sends that skill's file after the message; a broken one warns", async () => {
  const ws = makeWorkspace();
  writeSkill(join(ws.home, "skills", "lint"), "---\nname: lint\ndescription: run every linter before finishing\n---\nRun `npm run lint` and fix what it reports.\n");
  writeSkill(join(ws.dir, ".codex", "skills", "broken"), "---\ndescription: nameless\n---\n");
  await withServer([turn(text("linted"))], async (server) => {
    const run = await exec(server, ["please tidy up, then $lint"], { cwd: ws.dir, home: ws.home });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /skill .*broken\/SKILL\.md was not loaded: the front matter needs a `name`/);
    const input = server.requests[0]?.body.input ?? [];
    const texts = input.map((i) => JSON.stringify(i));
    assert.ok(texts.some((t) => t.includes("## Skills") && t.includes("- lint: run every linter before finishing")), "the list is in the instructions");
    const last = input.slice(-2).map((i) => JSON.stringify(i));
    assert.match(last[0] ?? "", /please tidy up, then \$lint/);
    assert.match(last[1] ?? "", /<skill>\\n<name>lint<\/name>\\n<path>[^<]*lint\/SKILL\.md<\/path>\\nRun `npm run lint` and fix what it reports\.\\n<\/skill>/);
  });
});

void test("list_skills and list_custom_prompts answer what a UI shows", async () => {
  const home = mkdtempSync(join(tmpdir(), "codex-ts-lists-"));
  writeSkill(join(home, "skills", "lint"), "---\nname: lint\ndescription: run the linters\n---\n");
  mkdirSync(join(home, "prompts"));
  writeFileSync(join(home, "prompts", "review.md"), "---\ndescription: Review a file\nargument-hint: FILE=<path>\n---\nReview $FILE.\n");
  await withSession(
    [],
    async (session) => {
      const a = session.submit({ type: "list_custom_prompts" });
      const prompts = (await until(session, a, "list_custom_prompts_response")).at(-1)?.msg;
      assert.ok(prompts?.type === "list_custom_prompts_response");
      assert.deepEqual(prompts.custom_prompts, [
        { name: "review", path: join(home, "prompts", "review.md"), content: "Review $FILE.\n", description: "Review a file", argument_hint: "FILE=<path>" },
      ]);
      const b = session.submit({ type: "list_skills" });
      const skills = (await until(session, b, "list_skills_response")).at(-1)?.msg;
      assert.ok(skills?.type === "list_skills_response");
      assert.equal(skills.skills.length, 1);
      assert.deepEqual(skills.skills[0]?.skills.map((s) => [s.name, s.scope]), [["lint", "user"]]);
      assert.deepEqual(skills.skills[0]?.errors, []);
    },
    { codexHome: home },
  );
});
