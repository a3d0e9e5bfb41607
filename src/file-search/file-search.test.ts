import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { FileIndex } from "./file-index.js";
import { scorePath } from "./fuzzy-match.js";
import { foldersOf, listFiles } from "./list-files.js";

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "file-search-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const git = (cwd: string, ...args: string[]): void => {
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, stdio: "ignore" });
};

void test("in a git work tree: tracked and untracked files, nested .gitignore honoured, deleted files gone", async () => {
  const root = tree({
    ".gitignore": "*.log\nbuild/\n",
    "src/app.ts": "",
    "src/old.ts": "",
    "src/.gitignore": "secret.txt\n",
    "src/secret.txt": "",
    "notes.log": "",
    "build/out.js": "",
    "new-file.md": "",
  });
  try {
    git(root, "init", "-q");
    git(root, "add", ".gitignore", "src/app.ts", "src/old.ts", "src/.gitignore");
    git(root, "commit", "-q", "-m", "x");
    rmSync(join(root, "src/old.ts"));
    const { files, source } = await listFiles(root);
    assert.equal(source, "git");
    assert.deepEqual([...files].sort(), [".gitignore", "new-file.md", "src/.gitignore", "src/app.ts"]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

void test("outside git: .gitignore and .ignore at every level, negation, .git skipped, links not entered", async () => {
  const root = tree({
    ".gitignore": "*.tmp\nvendor/\n",
    "a/.ignore": "generated.ts\n!keep.tmp\n",
    "a/generated.ts": "",
    "a/keep.tmp": "",
    "a/drop.tmp": "",
    "a/main.ts": "",
    "vendor/lib.js": "",
    ".git/config": "",
    "b/c/deep.txt": "",
  });
  try {
    symlinkSync(root, join(root, "b/loop")); // a link back to the root: a loop if followed
    const { files, source } = await listFiles(root, { useGit: false });
    assert.equal(source, "walk");
    assert.deepEqual(files, [".gitignore", "a/.ignore", "a/keep.tmp", "a/main.ts", "b/c/deep.txt", "b/loop"]);
    const capped = await listFiles(root, { useGit: false, maxFiles: 2 });
    assert.equal(capped.files.length, 2);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

void test("a match in the file name beats one spread over folders; indices point at the matched characters", () => {
  const name = scorePath("main", "src/cli/main.ts");
  const spread = scorePath("main", "src/mcp/api/index.ts");
  assert.ok(name && spread);
  assert.ok(name.score > spread.score);
  assert.deepEqual(name.indices, [8, 9, 10, 11]);
  assert.equal(name.indices.map((i) => "src/cli/main.ts"[i]).join(""), "main");
  assert.equal(scorePath("xyz", "src/main.ts"), null);
  // Case does not matter, spaces are ignored.
  assert.deepEqual(scorePath("M T", "Main.ts")?.indices, [0, 5]);
});

void test("word starts and adjacent characters score higher; shorter paths win ties", () => {
  const boundary = scorePath("fs", "src/file_search.ts");
  const inside = scorePath("fs", "src/offsets.ts");
  assert.ok(boundary && inside && boundary.score > inside.score);
  const camel = scorePath("fs", "src/fileSearch.ts");
  assert.ok(camel && inside && camel.score > inside.score);
  const short = scorePath("readme", "README.md");
  const long = scorePath("readme", "docs/old/README.md");
  assert.ok(short && long && short.score > long.score);
});

void test("FileIndex builds once in the background, searches best first, and narrows extended queries", async () => {
  const files = ["src/tui/parts/theme.ts", "src/tui/parts/file-search.ts", "docs/tui.md", "src/core/session.ts", "test/e2e/tui.test.ts"];
  let listed = 0;
  const index = new FileIndex("/nowhere", {
    lister: () => {
      listed++;
      return Promise.resolve({ files, source: "walk" as const });
    },
  });
  assert.equal(index.state, "building");
  assert.deepEqual(index.search("tui"), []);
  await index.whenReady();
  assert.equal(index.state, "ready");
  assert.equal(index.size, 5);
  const results = index.search("tui");
  assert.equal(results[0]?.path, "docs/tui.md");
  assert.equal(results.length, 4);
  assert.deepEqual(index.search("tuimd").map((m) => m.path), ["docs/tui.md"]);
  assert.deepEqual(index.search("fsearch", 1).map((m) => m.path), ["src/tui/parts/file-search.ts"]);
  assert.equal(index.search("").length, 5);
  assert.equal(index.search("", 2)[0]?.path, "docs/tui.md");
  assert.equal(listed, 1);
  assert.ok(index.age() < 60_000);
  // Two refreshes at once list the files once.
  await Promise.all([index.refresh(), index.refresh()]);
  assert.equal(listed, 2);
});

void test("a failed listing is reported, and a refresh that fails keeps the previous list", async () => {
  let fail = true;
  const index = new FileIndex("/x", {
    lister: () => (fail ? Promise.reject(new Error("boom")) : Promise.resolve({ files: ["a.ts"], source: "walk" as const })),
  });
  await index.whenReady();
  assert.equal(index.state, "failed");
  assert.match(index.error ?? "", /could not list the files under \/x: boom/);
  fail = false;
  await index.refresh();
  assert.equal(index.state, "ready");
  fail = true;
  await index.refresh();
  assert.equal(index.state, "ready");
  assert.equal(index.search("a")[0]?.path, "a.ts");
});

void test("scores are never negative, even for a long path with the match spread thin", () => {
  const path = `${"a/".repeat(1000)}${"b".repeat(2000)}/z.txt`;
  const match = scorePath("az", path);
  assert.ok(match && match.score >= 0 && Number.isInteger(match.score));
  assert.equal(match.kind, "file");
});

void test("with folders on, the folders holding the files are offered too, each once", async () => {
  assert.deepEqual(foldersOf(["src/a/x.ts", "src/a/y.ts", "src/b.ts", "top.md"]), ["src", "src/a"]);
  const index = new FileIndex("/r", { folders: true, lister: () => Promise.resolve({ files: ["src/components/button.tsx", "src/main.ts"], source: "walk" as const }) });
  await index.whenReady();
  assert.equal(index.size, 4);
  const found = index.search("src", 10).map((m) => `${m.kind}:${m.path}`);
  assert.equal(found[0], "directory:src");
  assert.ok(found.includes("directory:src/components"));
  assert.ok(found.includes("file:src/main.ts"));
  assert.deepEqual(index.search("button", 10).map((m) => m.kind), ["file"]);
});
