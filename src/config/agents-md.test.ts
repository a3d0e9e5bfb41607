import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROJECT_DOC_SEPARATOR, agentsMdFiles, loadAgentsMd } from "./agents-md.js";

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "codex-ts-agents-"));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(root, name, ".."), { recursive: true });
    writeFileSync(join(root, name), content);
  }
  return root;
}

const load = (root: string, cwd: string, extra: Partial<Parameters<typeof loadAgentsMd>[0]> = {}) =>
  loadAgentsMd({ codexHome: join(root, "home"), cwd: join(root, cwd), maxBytes: 32 * 1024, fallbackFilenames: [], rootMarkers: [".git"], ...extra }).text;

void test("global file, then every folder from the project root down to cwd, root first", () => {
  const root = tree({
    "home/AGENTS.md": "global rules",
    "repo/.git/HEAD": "ref",
    "repo/AGENTS.md": "root rules",
    "repo/pkg/AGENTS.md": "package rules",
    "repo/pkg/src/other.txt": "",
    "outside/AGENTS.md": "never read",
  });
  assert.equal(load(root, "repo/pkg/src"), `global rules${PROJECT_DOC_SEPARATOR}root rules\n\npackage rules`);
  // The files it read, in that order (what /status lists).
  const opts = { codexHome: join(root, "home"), cwd: join(root, "repo/pkg/src"), maxBytes: 32 * 1024, fallbackFilenames: [], rootMarkers: [".git"] };
  assert.deepEqual(agentsMdFiles(opts), [join(root, "home/AGENTS.md"), join(root, "repo/AGENTS.md"), join(root, "repo/pkg/AGENTS.md")]);
});

void test("in each folder the override wins, then AGENTS.md, then the fallback names in order", () => {
  const root = tree({
    "home/AGENTS.override.md": "global override",
    "home/AGENTS.md": "global plain",
    "repo/.git/HEAD": "",
    "repo/AGENTS.override.md": "root override",
    "repo/AGENTS.md": "root plain",
    "repo/a/CLAUDE.md": "a fallback",
    "repo/a/TEAM.md": "a second fallback",
  });
  assert.equal(load(root, "repo/a", { fallbackFilenames: ["CLAUDE.md", "TEAM.md"] }), `global override${PROJECT_DOC_SEPARATOR}root override\n\na fallback`);
});

void test("without a root marker only cwd is read; custom markers define the root", () => {
  const root = tree({ "proj/AGENTS.md": "proj", "proj/sub/AGENTS.md": "sub", "proj/.hg/x": "" });
  // A marker no folder above the temporary one can hold (a stray /tmp/.git would make /tmp the root).
  assert.equal(load(root, "proj/sub", { rootMarkers: [".codex-ts-test-no-such-marker"] }), "sub");
  assert.equal(load(root, "proj/sub", { rootMarkers: [".hg"] }), "proj\n\nsub");
});

void test("project files are capped at project_doc_max_bytes in total; 0 turns them off", () => {
  const root = tree({ "home/AGENTS.md": "g", "repo/.git/HEAD": "", "repo/AGENTS.md": "0123456789", "repo/x/AGENTS.md": "abcdef" });
  assert.equal(load(root, "repo/x", { maxBytes: 12 }), `g${PROJECT_DOC_SEPARATOR}0123456789\n\nab`);
  assert.equal(load(root, "repo/x", { maxBytes: 0 }), "g");
  assert.equal(load(tree({ "repo/.git/HEAD": "" }), "repo"), null);
});

void test("a link to /dev/zero or a FIFO is skipped with a warning naming it, and the next name is read", () => {
  const root = tree({ "repo/.git/HEAD": "", "repo/TEAM.md": "team rules", "home/AGENTS.md": "g" });
  symlinkSync("/dev/zero", join(root, "repo/AGENTS.md"));
  execFileSync("mkfifo", [join(root, "repo/AGENTS.override.md")]);
  const loaded = loadAgentsMd({ codexHome: join(root, "home"), cwd: join(root, "repo"), maxBytes: 32 * 1024, fallbackFilenames: ["TEAM.md"], rootMarkers: [".git"] });
  assert.equal(loaded.text, `g${PROJECT_DOC_SEPARATOR}team rules`);
  assert.equal(loaded.warnings.length, 2);
  assert.match(loaded.warnings[0] ?? "", /AGENTS\.override\.md is a named pipe \(FIFO\), not a regular file/);
  assert.match(loaded.warnings[1] ?? "", /AGENTS\.md is a character device, not a regular file/);
});

void test("a 200 MB AGENTS.md gives the budget's worth and a warning with both sizes", () => {
  const root = tree({ "repo/.git/HEAD": "" });
  const big = join(root, "repo/AGENTS.md");
  writeFileSync(big, "rule\n");
  truncateSync(big, 200 * 1024 * 1024); // sparse: no disk used, but 200 MB to read whole
  const loaded = loadAgentsMd({ codexHome: join(root, "home"), cwd: join(root, "repo"), maxBytes: 32 * 1024, fallbackFilenames: [], rootMarkers: [".git"] });
  assert.ok(loaded.text?.startsWith("rule\n"));
  assert.equal(Buffer.byteLength(loaded.text ?? ""), 32 * 1024);
  assert.equal(loaded.warnings.length, 1);
  assert.match(loaded.warnings[0] ?? "", new RegExp(`AGENTS\\.md: only its first 32768 of ${200 * 1024 * 1024} bytes are in the instructions.*project_doc_max_bytes`));
});
