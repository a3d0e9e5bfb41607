import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
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
  loadAgentsMd({ codexHome: join(root, "home"), cwd: join(root, cwd), maxBytes: 32 * 1024, fallbackFilenames: [], rootMarkers: [".git"], ...extra });

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
  assert.equal(load(root, "proj/sub"), "sub");
  assert.equal(load(root, "proj/sub", { rootMarkers: [".hg"] }), "proj\n\nsub");
});

void test("project files are capped at project_doc_max_bytes in total; 0 turns them off", () => {
  const root = tree({ "home/AGENTS.md": "g", "repo/.git/HEAD": "", "repo/AGENTS.md": "0123456789", "repo/x/AGENTS.md": "abcdef" });
  assert.equal(load(root, "repo/x", { maxBytes: 12 }), `g${PROJECT_DOC_SEPARATOR}0123456789\n\nab`);
  assert.equal(load(root, "repo/x", { maxBytes: 0 }), "g");
  assert.equal(load(tree({ "repo/.git/HEAD": "" }), "repo"), null);
});
