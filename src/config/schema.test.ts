import { test } from "node:test";
import assert from "node:assert/strict";
import { homedir } from "node:os";
import { CONFIG_SCHEMA, KNOWN_TOP_LEVEL_KEYS, defaultsTable, describe, formatPath, resolvePaths, validateTable } from "./schema.js";
import { FEATURES, resolveFeatures } from "./features.js";
import type { TomlTable } from "./overrides.js";

const errorsOf = (t: TomlTable): string[] => validateTable(t).errors.map((e) => `${formatPath(e.path)}: ${e.message}`);
const unknownOf = (t: TomlTable): string[] => validateTable(t).unknown.map((u) => u.message);

void test("every key is unique, and every nested key has its parent in the schema", () => {
  const keys = CONFIG_SCHEMA.map((s) => s.key);
  assert.equal(new Set(keys).size, keys.length);
  for (const key of keys) {
    const parent = key.split(".").slice(0, -1).join(".");
    if (parent) assert.ok(keys.includes(parent), `${key} has no parent entry`);
  }
});

void test("wrong types, bad enum values and out-of-range numbers are errors naming the full key", () => {
  assert.deepEqual(errorsOf({ model: 5 }), ["model: expected a string, got integer 5"]);
  assert.deepEqual(errorsOf({ sandbox_mode: "everything" }), ["sandbox_mode: 'everything' is not one of read-only, workspace-write, danger-full-access"]);
  assert.deepEqual(errorsOf({ approval_policy: true }), ["approval_policy: expected one of untrusted, on-failure, on-request, never, got boolean true"]);
  assert.deepEqual(errorsOf({ project_doc_max_bytes: -1 }), ["project_doc_max_bytes: -1 is below the minimum, 0"]);
  assert.deepEqual(errorsOf({ project_doc_max_bytes: 1.5 }), ["project_doc_max_bytes: expected an integer, got float 1.5"]);
  assert.deepEqual(errorsOf({ sandbox_workspace_write: { network_access: "yes" } }), [
    'sandbox_workspace_write.network_access: expected a boolean (true or false), got "yes"',
  ]);
  assert.deepEqual(errorsOf({ sandbox_workspace_write: true }), ["sandbox_workspace_write: expected a table, got boolean true"]);
  assert.deepEqual(errorsOf({ model_providers: { az: { request_max_retries: "3" } } }), [
    'model_providers.az.request_max_retries: expected an integer, got "3"',
  ]);
  assert.deepEqual(errorsOf({ shell_environment_policy: { set: { PATH: 1 } } }), ["shell_environment_policy.set.PATH: expected a string, got integer 1"]);
  assert.deepEqual(errorsOf({ projects: { "/a b": { trust_level: "yes" } } }), ['projects."/a b".trust_level: \'yes\' is not one of trusted, untrusted']);
  assert.deepEqual(errorsOf({ profiles: { fast: { model_reasoning_effort: "max" } } }), [
    "profiles.fast.model_reasoning_effort: 'max' is not one of none, minimal, low, medium, high, xhigh",
  ]);
  assert.deepEqual(errorsOf({ features: { undo: "on" } }), ['features.undo: expected a boolean (true or false), got "on"']);
  assert.deepEqual(errorsOf({ notify: ["a", 1] }), ["notify: expected an array of strings, got an array"]);
  assert.deepEqual(errorsOf({ model: "a", history: { persistence: "some" } }), ["history.persistence: 'some' is not one of save-all, none"]);
});

void test("mcp_servers entries need exactly one transport and only its keys", () => {
  assert.deepEqual(errorsOf({ mcp_servers: { a: { command: "x" }, b: { url: "http://h/mcp", bearer_token_env_var: "T" } } }), []);
  assert.deepEqual(errorsOf({ mcp_servers: { a: { args: [] } } }), ["mcp_servers.a: needs command (a stdio server) or url (a streamable HTTP server)"]);
  assert.deepEqual(errorsOf({ mcp_servers: { a: { command: "x", url: "u" } } }), ["mcp_servers.a: has both command (a stdio server) and url (an HTTP server); keep one"]);
  assert.deepEqual(errorsOf({ mcp_servers: { a: { url: "u", env: {} } } }), ["mcp_servers.a: env applies only to stdio servers (with command)"]);
  assert.deepEqual(errorsOf({ mcp_servers: { a: { command: "x", tool_timeout_sec: "60" } } }), ['mcp_servers.a.tool_timeout_sec: expected a number, got "60"']);
});

void test("unknown keys at every level are reported with their full path, never as errors", () => {
  const table: TomlTable = {
    modle: "x",
    model_reasoning_efort: "high",
    sandbox_workspace_write: { network: true },
    model_providers: { az: { base_uri: "x" } },
    profiles: { fast: { modle: "x", project_doc_max_bytes: 1 } },
    mcp_servers: { docs: { command: "x", argz: [] } },
    features: { undo: true, not_a_feature: true, collab: false, shell_snapshots: true },
    tui: { anything: { goes: 1 }, alternate_screen: "never", alternat_screen: true, notification: true },
  };
  assert.deepEqual(validateTable(table).errors, []);
  assert.deepEqual(unknownOf(table), [
    "unknown config key 'modle' is ignored (did you mean model?)",
    "unknown config key 'model_reasoning_efort' is ignored (did you mean model_reasoning_effort?)",
    "unknown config key 'sandbox_workspace_write.network' is ignored (did you mean network_access?)",
    "unknown config key 'model_providers.az.base_uri' is ignored (did you mean base_url?)",
    "unknown config key 'profiles.fast.modle' is ignored (did you mean model?)",
    "'profiles.fast.project_doc_max_bytes' is ignored: 'project_doc_max_bytes' cannot be set in a profile",
    "unknown config key 'mcp_servers.docs.argz' is ignored (did you mean args?)",
    "unknown feature 'not_a_feature' (features.not_a_feature) is ignored",
    "unknown feature 'shell_snapshots' (features.shell_snapshots) is ignored (did you mean shell_snapshot?)",
    // [tui] keys are not checked, but near misses of the reference's keys are named.
    "unknown config key 'tui.alternat_screen' is ignored (did you mean alternate_screen?)",
    "unknown config key 'tui.notification' is ignored (did you mean notifications?)",
  ]);
});

void test("the reference's top-level keys are all known", () => {
  for (const key of ["model", "notify", "tui", "otel", "mcp_servers", "profiles", "projects", "features", "history", "windows_wsl_setup_acknowledged"]) {
    assert.ok(KNOWN_TOP_LEVEL_KEYS.has(key), key);
  }
});

void test("the defaults layer holds the fixed defaults and nothing under a <name>", () => {
  const d = defaultsTable();
  assert.equal(d.model, "gpt-5.5");
  assert.equal(d.model_provider, "openai");
  // No fixed default: it follows the folder's trust (see load-config.ts).
  assert.equal(d.sandbox_mode, undefined);
  assert.equal(d.project_doc_max_bytes, 32768);
  assert.deepEqual(d.project_root_markers, [".git"]);
  assert.deepEqual(d.history, { persistence: "save-all" });
  assert.equal(d.model_providers, undefined);
  assert.equal(d.profiles, undefined);
  assert.deepEqual(validateTable(d), { errors: [], unknown: [] });
});

void test("path values become absolute against the layer's folder; ~ is the home folder", () => {
  const t: TomlTable = {
    model_instructions_file: "prompt.md",
    sandbox_workspace_write: { writable_roots: ["cache", "/abs"] },
    profiles: { p: { model_instructions_file: "~/p.md" } },
    model: "relative-looking/model",
  };
  resolvePaths(t, "/base");
  assert.equal(t.model_instructions_file, "/base/prompt.md");
  assert.deepEqual((t.sandbox_workspace_write as TomlTable).writable_roots, ["/base/cache", "/abs"]);
  assert.equal(((t.profiles as TomlTable).p as TomlTable).model_instructions_file, `${homedir()}/p.md`);
  assert.equal(t.model, "relative-looking/model");
});

void test("features resolve from defaults, legacy toggles, aliases and [features]", () => {
  const base = resolveFeatures({});
  assert.equal(Object.keys(base).length, FEATURES.length);
  assert.equal(base.undo, false);
  assert.equal(base.shell_tool, true);
  const set = resolveFeatures({ experimental_use_unified_exec_tool: false, features: { memories: true, undo: true, collab: false, nope: true } });
  assert.equal(set.memories, true);
  assert.equal(set.undo, false, "undo is removed and pinned off in the reference");
  assert.equal(set.unified_exec, false);
  assert.equal(set.multi_agent, false, "collab is the older name of multi_agent");
  assert.equal(set.nope, undefined);
});

void test("values are described by type in messages", () => {
  assert.equal(describe("x"), '"x"');
  assert.equal(describe(3), "integer 3");
  assert.equal(describe(0.5), "float 0.5");
  assert.equal(describe([]), "an empty array");
  assert.equal(describe({}), "a table");
  assert.equal(describe(new Date(0)), "a date");
});
