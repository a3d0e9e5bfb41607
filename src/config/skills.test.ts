import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { discoverSkills, mentionedSkills, skillInjection, skillsInstructions } from "./skills.js";
import { discoverPrompts, expandPrompt } from "./custom-prompts.js";

function skillFile(dir: string, body: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "SKILL.md");
  writeFileSync(path, body);
  return path;
}

void test("skills are found in the repository, the user's folders and CODEX_HOME; broken ones are reported", () => {
  const root = mkdtempSync(join(tmpdir(), "codex-ts-skills-"));
  const repo = join(root, "repo");
  const cwd = join(repo, "pkg", "app");
  mkdirSync(cwd, { recursive: true });
  const codexHome = join(root, "home");
  const release = skillFile(join(repo, ".codex", "skills", "release"), "---\nname: release\ndescription: >\n  Cut a release:\n  bump, tag, push.\nmetadata:\n  short-description: releases\n---\nRun the release script.\n");
  skillFile(join(repo, "pkg", ".agents", "skills", "deep", "a", "b"), "---\nname: nested\ndescription: found below the root\n---\n");
  skillFile(join(codexHome, "skills", "release-copy"), "---\nname: release\ndescription: the user's own, shadowed by the repository's\n---\n");
  skillFile(join(codexHome, "skills", "lint"), "---\nname: lint\ndescription: run the linters\n---\nUse npm run lint.\n");
  const noName = skillFile(join(codexHome, "skills", "broken"), "---\ndescription: no name\n---\n");
  const badYaml = skillFile(join(codexHome, "skills", "yaml"), "---\nname: [unclosed\n---\n");
  const found = discoverSkills({ codexHome, cwd, projectRoot: repo, home: join(root, "nohome"), adminRoot: join(root, "noadmin") });
  assert.deepEqual(
    found.skills.map((s) => [s.name, s.scope]),
    [
      ["release", "repo"],
      ["nested", "repo"],
      ["lint", "user"],
    ],
  );
  assert.equal(found.skills[0]?.path, release);
  assert.equal(found.skills[0]?.description, "Cut a release: bump, tag, push.");
  assert.equal(found.skills[0]?.shortDescription, "releases");
  assert.deepEqual(found.errors.map((e) => e.path).sort(), [noName, badYaml].sort());
  assert.match(found.errors.find((e) => e.path === noName)?.message ?? "", /needs a `name`/);

  const section = skillsInstructions(found.skills) ?? "";
  assert.match(section, /^## Skills\n/);
  assert.match(section, /- lint: run the linters \(file: .*lint\/SKILL\.md\)/);
  assert.equal(skillsInstructions([]), null);
  assert.deepEqual(mentionedSkills("please $lint then $release. and $unknown", found.skills).map((s) => s.name), ["lint", "release"]);
  assert.equal(skillInjection(found.skills[2]!, "Use npm run lint.\n"), `<skill>\n<name>lint</name>\n<path>${found.skills[2]?.path}</path>\nUse npm run lint.\n</skill>`);
});

void test("custom prompts: discovery with front matter, and every kind of placeholder", () => {
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-prompts-"));
  writeFileSync(join(dir, "fix.md"), "---\ndescription: Fix an issue\nargument-hint: ISSUE=<n> [files]\n---\nFix issue $ISSUE in $1 (all: $ARGUMENTS), costs $$5.\n");
  writeFileSync(join(dir, "plain.md"), "Just text $2.");
  writeFileSync(join(dir, "notes.txt"), "ignored");
  const { prompts, errors } = discoverPrompts(dir);
  assert.deepEqual(errors, []);
  assert.deepEqual(
    prompts.map((p) => [p.name, p.description, p.argument_hint]),
    [
      ["fix", "Fix an issue", "ISSUE=<n> [files]"],
      ["plain", undefined, undefined],
    ],
  );
  assert.equal(expandPrompt(prompts[0]?.content ?? "", 'ISSUE=42 src/a.ts "b c.ts"'), "Fix issue 42 in src/a.ts (all: src/a.ts b c.ts), costs $5.\n");
  assert.equal(expandPrompt("Just text $2 and $MISSING.", "one"), "Just text  and $MISSING.");
  assert.deepEqual(discoverPrompts(join(dir, "none")), { prompts: [], errors: [] });
});

void test("a prompt or skill that is a FIFO, a link to /dev/zero or oversized is reported by name, never read", () => {
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-prompts-"));
  writeFileSync(join(dir, "good.md"), "Fine.");
  execFileSync("mkfifo", [join(dir, "fifo.md")]);
  symlinkSync("/dev/zero", join(dir, "zero.md"));
  writeFileSync(join(dir, "huge.md"), "");
  truncateSync(join(dir, "huge.md"), 50 * 1024 * 1024);
  const { prompts, errors } = discoverPrompts(dir);
  assert.deepEqual(prompts.map((p) => p.name), ["good"]);
  assert.deepEqual(
    errors.map((e) => [e.path, e.message.replace(`${e.path} `, "")]),
    [
      [join(dir, "fifo.md"), "is a named pipe (FIFO), not a regular file, so it was not read"],
      [join(dir, "huge.md"), "is 50 MiB, over the 1 MiB a file of its kind may have, so it was not read"],
      [join(dir, "zero.md"), "is a character device, not a regular file, so it was not read"],
    ],
  );

  const root = mkdtempSync(join(tmpdir(), "codex-ts-skills-"));
  mkdirSync(join(root, "home", "skills", "trap"), { recursive: true });
  execFileSync("mkfifo", [join(root, "home", "skills", "trap", "SKILL.md")]);
  const found = discoverSkills({ codexHome: join(root, "home"), cwd: root, projectRoot: root, home: join(root, "nohome"), adminRoot: join(root, "noadmin") });
  assert.deepEqual(found.skills, []);
  assert.match(found.errors[0]?.message ?? "", /SKILL\.md is a named pipe \(FIFO\)/);
});
