/** What `npm pack` would publish: the compiled program, never the compiled tests. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

void test("npm pack ships dist/src without a single test file", () => {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  const files = (JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0]?.files.map((f) => f.path) ?? [];
  assert.ok(files.includes("dist/src/cli/main.js"), "the entry point is shipped");
  assert.deepEqual(
    files.filter((f) => /\.test\.|(^|\/)test\//.test(f)),
    [],
  );
});
