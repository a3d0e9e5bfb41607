import { test } from "node:test";
import assert from "node:assert/strict";
import { linkSync, mkdirSync, mkdtempSync, realpathSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileSystemGuard, type DenyView } from "./fs-guard.js";
import type { FileSystemRules } from "./fs-rules.js";

function tree(files: Record<string, string>): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "codex-ts-guard-")));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const rules = (root: string, more: Partial<FileSystemRules> = {}): FileSystemRules => ({
  paths: [],
  denyGlobs: [{ base: root, pattern: "**/.env" }],
  globScanMaxDepth: null,
  searchRoots: [root],
  ...more,
});

const hidden = (view: DenyView, root: string): string[] => view.hidden.map((h) => `${h.path.slice(root.length + 1)}${h.dir ? "/" : ""}`).sort();

void test("globs are matched at any depth, a matching folder is hidden whole, and files appearing later are found on the next view", () => {
  const root = tree({ ".env": "A", "a/b/c/.env": "B", "a/readme": "r", "dir/.env/inner": "C", "secrets/k": "K" });
  const guard = new FileSystemGuard(rules(root, { paths: [{ path: join(root, "secrets"), access: "none" }] }));
  assert.deepEqual(hidden(guard.view(), root), [".env", "a/b/c/.env", "dir/.env/", "secrets/"]);
  writeFileSync(join(root, "a", ".env"), "late");
  mkdirSync(join(root, "new", "deep"), { recursive: true });
  writeFileSync(join(root, "new", "deep", ".env"), "later");
  assert.deepEqual(hidden(guard.view(), root), [".env", "a/.env", "a/b/c/.env", "dir/.env/", "new/deep/.env", "secrets/"]);
});

void test("glob_scan_max_depth bounds the walk: matches deeper than it are not found", () => {
  const root = tree({ ".env": "1", "a/.env": "2", "a/b/.env": "3" });
  const guard = new FileSystemGuard(rules(root, { globScanMaxDepth: 2 }));
  assert.deepEqual(hidden(guard.view(), root), [".env", "a/.env"]);
});

void test("a matching symlink hides what it points at; a symlinked folder is not walked into", () => {
  const root = tree({ "real/secret.txt": "S", "elsewhere/.env": "E" });
  symlinkSync(join(root, "real", "secret.txt"), join(root, ".env"));
  symlinkSync(join(root, "elsewhere"), join(root, "link"));
  const guard = new FileSystemGuard(rules(root));
  assert.deepEqual(hidden(guard.view(), root), ["elsewhere/.env", "real/secret.txt"]);
});

void test("other hard links to a hidden file, or to a file in a hidden folder, are hidden when they are in the search roots", () => {
  const root = tree({ "secrets/key": "K", "sub/.env": "E", "plain": "p" });
  linkSync(join(root, "secrets", "key"), join(root, "copy-of-key"));
  linkSync(join(root, "sub", ".env"), join(root, "sub", "env-copy"));
  const guard = new FileSystemGuard(rules(root, { paths: [{ path: join(root, "secrets"), access: "none" }] }));
  assert.deepEqual(hidden(guard.view(), root), ["copy-of-key", "secrets/", "sub/.env", "sub/env-copy"]);
  assert.match(guard.deniedReason(join(root, "copy-of-key")) ?? "", /is a hard link to .*secrets\/key, which is denied|copy-of-key is off limits/);
  assert.equal(guard.deniedReason(join(root, "plain")), null);
  // Outside the search roots the sandbox cannot know the name, but the agent's own reads can.
  const elsewhere = realpathSync(mkdtempSync(join(tmpdir(), "codex-ts-guard-elsewhere-")));
  linkSync(join(root, "secrets", "key"), join(elsewhere, "key-again"));
  assert.match(guard.deniedReason(join(elsewhere, "key-again")) ?? "", /is a hard link to .*secrets\/key, which is denied/);
});

void test("deniedReason follows the path as given and as it really is: symlinks, .. and names that do not exist yet", () => {
  const root = tree({ "secrets/key": "K", "ok.txt": "fine" });
  symlinkSync(join(root, "secrets", "key"), join(root, "innocent"));
  const guard = new FileSystemGuard(rules(root, { paths: [{ path: join(root, "secrets"), access: "none" }, { path: join(root, "secrets", "public"), access: "read" }] }));
  assert.match(guard.deniedReason(join(root, "secrets", "key")) ?? "", /off limits: the permission profile denies access to it/);
  assert.match(guard.deniedReason(join(root, "innocent")) ?? "", /off limits/);
  assert.match(guard.deniedReason(join(root, "ok.txt", "..", "secrets", "new-file")) ?? "", /off limits/);
  assert.match(guard.deniedReason(join(root, "deep", "er", ".env")) ?? "", /matches the denied pattern .*\*\*\/\.env/);
  // A deeper rule reopens part of a denied folder.
  assert.equal(guard.deniedReason(join(root, "secrets", "public", "readme")), null);
  assert.equal(guard.deniedReason(join(root, "ok.txt")), null);
  assert.equal(guard.deniedByName(join(root, "a", ".env")), true);
  assert.equal(guard.deniedByName(join(root, "innocent")), false, "by name only: the link itself is not denied");
});

void test("a renamed folder keeps nothing hidden by name, but its hidden files are hidden again wherever the pattern still matches", () => {
  const root = tree({ "conf/.env": "E" });
  const guard = new FileSystemGuard(rules(root));
  assert.deepEqual(hidden(guard.view(), root), ["conf/.env"]);
  renameSync(join(root, "conf"), join(root, "moved"));
  assert.deepEqual(hidden(guard.view(), root), ["moved/.env"]);
});

void test("a path only built-in globs hide is marked so; a user's glob or a hard link to the user's secret is not", () => {
  const root = tree({ ".env": "A", "x/.env/key.pem": "K", "keys/k.pem": "P" });
  linkSync(join(root, "keys", "k.pem"), join(root, "twin"));
  const guard = new FileSystemGuard(
    rules(root, {
      denyGlobs: [
        { base: root, pattern: "**/.env", byDefault: true },
        { base: root, pattern: "**/*.pem" },
      ],
    }),
  );
  const marks = guard
    .view()
    .hidden.map((h) => `${h.path.slice(root.length + 1)}${h.byDefault === true ? " (built-in)" : ""}`)
    .sort();
  // A folder only a built-in glob hides is still searched for the user's matches.
  assert.deepEqual(marks, [".env (built-in)", "keys/k.pem", "twin", "x/.env (built-in)", "x/.env/key.pem"]);
});

void test("prewarm lists the tree in the background; a view after it sees files made since", async () => {
  const root = tree({ "a/b/.env": "A", "c/readme": "r" });
  const guard = new FileSystemGuard(rules(root));
  await guard.prewarm();
  writeFileSync(join(root, "c", ".env"), "later");
  assert.deepEqual(hidden(guard.view(), root), ["a/b/.env", "c/.env"]);
});

void test("warnOnce passes each topic's warning on once", () => {
  const warnings: string[] = [];
  const guard = new FileSystemGuard(rules("/nonexistent"), { warn: (message) => warnings.push(message) });
  guard.warnOnce("a", "first");
  guard.warnOnce("a", "again");
  guard.warnOnce("b", "other");
  assert.deepEqual(warnings, ["first", "other"]);
});
