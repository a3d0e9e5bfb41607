import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { renderConfigDocs } from "./docs.js";
import { FEATURES } from "./features.js";
import { CONFIG_SCHEMA } from "./schema.js";

/** docs/config.md of the checkout: above the compiled test, or in the working directory. */
function docsFile(): string {
  const candidates = [join(process.cwd(), "docs", "config.md")];
  for (let dir = dirname(fileURLToPath(import.meta.url)); dirname(dir) !== dir; dir = dirname(dir)) candidates.unshift(join(dir, "docs", "config.md"));
  const found = candidates.find((c) => existsSync(c));
  assert.ok(found, `docs/config.md not found (looked in ${candidates.join(", ")})`);
  return found;
}

void test("docs/config.md documents every schema key and every feature flag", () => {
  const docs = readFileSync(docsFile(), "utf8");
  const missing = CONFIG_SCHEMA.filter((s) => !docs.includes(`| \`${s.key}\` |`)).map((s) => s.key);
  assert.deepEqual(missing, [], "keys missing from docs/config.md");
  const features = FEATURES.filter((f) => !docs.includes(`\`${f.key}\``)).map((f) => f.key);
  assert.deepEqual(features, [], "features missing from docs/config.md");
});

void test("docs/config.md is exactly what the schema generates", () => {
  assert.ok(
    readFileSync(docsFile(), "utf8") === renderConfigDocs(),
    "docs/config.md is out of date: run `npm run build && node dist/src/config/write-docs.js` from the repository root",
  );
});
