import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { renderConfigDocs } from "./docs.js";
import { FEATURES } from "./features.js";
import { loadConfig } from "./load-config.js";
import { CONFIG_SCHEMA } from "./schema.js";

/** A file of the checkout (`docs/config.md`): above the compiled test, or in the working directory. */
function repoFile(relative: string): string {
  const candidates = [join(process.cwd(), relative)];
  for (let dir = dirname(fileURLToPath(import.meta.url)); dirname(dir) !== dir; dir = dirname(dir)) candidates.unshift(join(dir, relative));
  const found = candidates.find((c) => existsSync(c));
  assert.ok(found, `${relative} not found (looked in ${candidates.join(", ")})`);
  return found;
}

const docsFile = (): string => repoFile(join("docs", "config.md"));

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

/** Loads `text` as the user's config.toml; returns the warnings (a config error throws). */
function warningsOf(text: string): string[] {
  const home = mkdtempSync(join(tmpdir(), "codex-ts-example-"));
  try {
    writeFileSync(join(home, "config.toml"), text);
    return loadConfig({ cwd: home, overrides: [], env: { CODEX_HOME: home } }).warnings.map((w) => w.replace(`${home}/`, ""));
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/**
 * The block as written, and once more for each commented-out alternative (`# key = value`),
 * uncommented in place of the line that sets the same key.
 */
function variants(block: string): string[] {
  const lines = block.split("\n");
  const out = [block];
  lines.forEach((line, i) => {
    const key = /^#\s*([\w-]+)\s*=/.exec(line)?.[1];
    if (!key) return;
    const setsKey = (l: string): boolean => new RegExp(`^${key}\\s*=`).test(l);
    out.push(lines.map((l, j) => (j === i ? l.replace(/^#\s*/, "") : setsKey(l) ? `# ${l}` : l)).join("\n"));
  });
  return out;
}

void test("every config.toml example in docs/ and the README loads without a warning, commented alternatives too", () => {
  const files = [repoFile("README.md"), ...readdirSync(dirname(docsFile())).filter((f) => f.endsWith(".md")).map((f) => join(dirname(docsFile()), f))];
  let checked = 0;
  for (const file of files) {
    for (const [, block = ""] of readFileSync(file, "utf8").matchAll(/```toml\n([\s\S]*?)```/g)) {
      for (const example of variants(block)) {
        checked++;
        assert.deepEqual(warningsOf(example), [], `${file}:\n${example}`);
      }
    }
  }
  assert.ok(checked >= 10, `only ${checked} examples found`);
});

void test("every example in the schema (shown in docs/config.md) loads without a warning", () => {
  const exampleOf = (key: string): string => CONFIG_SCHEMA.find((s) => s.key === key)?.example ?? "";
  // An example that names a provider, a profile or a permission profile needs the one it names.
  const context: Record<string, string> = {
    model_provider: exampleOf("model_providers.<id>"),
    profile: exampleOf("profiles.<name>"),
    default_permissions: exampleOf("permissions.<name>"),
  };
  for (const spec of CONFIG_SCHEMA) {
    if (spec.example === undefined) continue;
    // A `key = value` example belongs in the table of the key it sets (`exporter` in [otel]).
    const firstKey = /^([\w-]+)\s*=/.exec(spec.example)?.[1];
    const segments = spec.key.split(".");
    const table = firstKey === undefined ? [] : segments.slice(0, Math.max(0, segments.indexOf(firstKey)));
    const body = table.length > 0 ? `[${table.join(".")}]\n${spec.example}` : spec.example;
    assert.deepEqual(warningsOf(`${body}\n${context[spec.key] ?? ""}`), [], `${spec.key}: ${spec.example}`);
  }
});

void test("no key marked *not used yet* changes what the config loader produces", () => {
  const home = mkdtempSync(join(tmpdir(), "codex-ts-unused-"));
  try {
    const file = join(home, "some-file.md");
    writeFileSync(file, "text\n");
    const load = (toml: string): unknown => {
      writeFileSync(join(home, "config.toml"), toml);
      // The merged table and the [shell_environment_policy] table are passed on whole (exec/env.ts
      // reads only the fields it knows): a key inside them shows there whether used or not.
      const { toml: _merged, warnings: _warnings, shellEnvironmentPolicy: _policy, ...config } = loadConfig({ cwd: home, overrides: [], env: { CODEX_HOME: home } });
      return config;
    };
    const baseline = load("");
    const used: string[] = [];
    for (const spec of CONFIG_SCHEMA) {
      if (!spec.unused || spec.key.startsWith("profiles.")) continue;
      const kind = typeof spec.type === "string" ? spec.type : spec.type[0];
      const values: Record<string, string> = {
        string: JSON.stringify(spec.values?.[0] ?? "x"),
        path: JSON.stringify(file),
        boolean: spec.default === true ? "false" : "true",
        integer: "7",
        number: "7",
        "string[]": '["x"]',
        "path[]": JSON.stringify([file]),
      };
      const value = values[kind ?? ""];
      if (value === undefined) continue; // tables: their keys are checked one by one
      const path = spec.key.split(".").map((part) => (part.startsWith("<") ? "x" : JSON.stringify(part)));
      let config: unknown;
      try {
        config = load(`${path.join(".")} = ${value}\n`);
      } catch {
        used.push(`${spec.key} (can stop the start)`);
        continue;
      }
      if (JSON.stringify(config) !== JSON.stringify(baseline)) used.push(spec.key);
    }
    assert.deepEqual(used, [], "these keys are marked *not used yet* but the loader acts on them");
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
