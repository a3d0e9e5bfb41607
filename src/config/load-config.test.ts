import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig, type CliConfigInput, type Config } from "./load-config.js";
import { configErrorOf } from "../../test/support/config-error.js";
import { ConfigError, parseOverride } from "./overrides.js";

interface Home {
  env: NodeJS.ProcessEnv;
  cwd: string;
  home: string;
  file: string;
}

function home(configToml: string | null): Home {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "codex-ts-config-")));
  mkdirSync(join(root, "home"));
  mkdirSync(join(root, "work"));
  const file = join(root, "home", "config.toml");
  if (configToml !== null) writeFileSync(file, configToml);
  return { env: { CODEX_HOME: join(root, "home") }, cwd: join(root, "work"), home: join(root, "home"), file };
}

const load = (h: Home, more: Partial<CliConfigInput> = {}): Config => loadConfig({ cwd: h.cwd, overrides: [], env: h.env, ...more });

/** The ConfigError message loadConfig throws. */
const failure = (h: Home, more: Partial<CliConfigInput> = {}): string => configErrorOf(() => load(h, more));

/** A git repository `repo` with `repo/pkg` inside the work folder, each with .codex/config.toml. */
function project(h: Home, rootToml: string, pkgToml?: string): { root: string; pkg: string } {
  const root = join(h.cwd, "repo");
  const pkg = join(root, "pkg");
  mkdirSync(join(root, ".git"), { recursive: true });
  mkdirSync(join(root, ".codex"));
  mkdirSync(join(pkg, ".codex"), { recursive: true });
  writeFileSync(join(root, ".codex", "config.toml"), rootToml);
  if (pkgToml !== undefined) writeFileSync(join(pkg, ".codex", "config.toml"), pkgToml);
  return { root, pkg };
}

void test("-c values are TOML when they parse, plain strings otherwise; keys may be dotted and quoted", () => {
  assert.deepEqual(parseOverride("model=o3"), { path: ["model"], value: "o3" });
  assert.deepEqual(parseOverride('model="o3"'), { path: ["model"], value: "o3" });
  assert.deepEqual(parseOverride("model=gpt-5.1-codex"), { path: ["model"], value: "gpt-5.1-codex" });
  assert.deepEqual(parseOverride("a.b.c=42"), { path: ["a", "b", "c"], value: 42 });
  assert.deepEqual(parseOverride("x=true"), { path: ["x"], value: true });
  assert.deepEqual(parseOverride('x=["PATH","HOME"]'), { path: ["x"], value: ["PATH", "HOME"] });
  assert.deepEqual(JSON.stringify(parseOverride("x={ a = 1 }")), JSON.stringify({ path: ["x"], value: { a: 1 } }));
  assert.deepEqual(parseOverride('projects."/a.b".trust_level=trusted'), { path: ["projects", "/a.b", "trust_level"], value: "trusted" });
  assert.deepEqual(parseOverride('projects."/a=b".trust_level=trusted'), { path: ["projects", "/a=b", "trust_level"], value: "trusted" });
  assert.deepEqual(parseOverride(" model = o3 "), { path: ["model"], value: "o3" });
  assert.throws(() => parseOverride("novalue"), { name: "ConfigError", message: "-c novalue: expected key=value" });
  assert.throws(() => parseOverride("a..b=1"), ConfigError);
});

void test("layers: file, then profile, then -c, then flags", () => {
  const h = home('model = "from-file"\nprofile = "fast"\n[profiles.fast]\nmodel = "from-profile"\nmodel_reasoning_effort = "low"\n');
  assert.equal(load(h).model, "from-profile");
  assert.equal(load(h).profile, "fast");
  assert.equal(load(h, { overrides: ["model=from-c"] }).model, "from-c");
  assert.equal(load(h, { overrides: ["model=from-c"], model: "from-flag" }).model, "from-flag");
  assert.equal(load(h).reasoningEffort, "low");
});

void test("precedence across every layer: defaults < user < project root < project leaf < profile < -c < flags", () => {
  const h = home(
    [
      'model = "user"',
      'model_verbosity = "low"',
      'model_reasoning_summary = "concise"',
      'developer_instructions = "user"',
      'profile = "p"',
      "[profiles.p]",
      'model_reasoning_effort = "high"',
      'sandbox_mode = "workspace-write"',
    ].join("\n"),
  );
  const { root, pkg } = project(
    h,
    'model = "root"\nmodel_verbosity = "medium"\ndeveloper_instructions = "root"\nmodel_reasoning_effort = "minimal"\n',
    'model = "leaf"\nmodel_verbosity = "high"\n',
  );
  const trusted = [`projects.${JSON.stringify(root)}.trust_level=trusted`];
  const c = load(h, { cwd: pkg, overrides: [...trusted, 'developer_instructions="from -c"'] });
  assert.equal(c.approvalPolicy, "on-request", "built-in default");
  assert.equal(c.reasoningSummary, "concise", "user file");
  assert.equal(c.verbosity, "high", "closest project file wins");
  assert.equal(c.model, "leaf");
  assert.equal(c.reasoningEffort, "high", "profile beats project files");
  assert.equal(c.sandboxMode, "workspace-write", "profile");
  assert.equal(c.developerInstructions, "from -c", "-c beats the files");
  assert.equal(load(h, { cwd: pkg, overrides: trusted, sandboxMode: "danger-full-access" }).sandboxMode, "danger-full-access", "flags beat the profile");
  assert.equal(c.projectTrustLevel, "trusted");
  assert.deepEqual(c.configFiles, [h.file, join(root, ".codex", "config.toml"), join(pkg, ".codex", "config.toml")]);
});

void test("project files load only for trusted projects; untrusted ones are skipped with a warning", () => {
  const h = home("");
  const { root, pkg } = project(h, 'model = "from-project"\n');
  const none = load(h, { cwd: pkg });
  assert.equal(none.model, "gpt-5.5");
  assert.equal(none.projectTrustLevel, null);
  assert.ok(none.warnings.some((w) => w.includes(`${join(root, ".codex", "config.toml")} is not loaded`) && w.includes(`[projects.${JSON.stringify(root)}]`)), none.warnings.join("\n"));
  // Undecided: a front end that asks the trust question can tell these warnings apart.
  assert.deepEqual(none.undecidedTrustWarnings, none.warnings.filter((w) => w.includes("is not loaded")));

  const untrusted = home("");
  const p2 = project(untrusted, 'model = "from-project"\n');
  writeFileSync(untrusted.file, `[projects.${JSON.stringify(p2.root)}]\ntrust_level = "untrusted"\n`);
  const marked = load(untrusted, { cwd: p2.pkg });
  assert.equal(marked.model, "gpt-5.5");
  assert.equal(marked.projectTrustLevel, "untrusted");
  assert.ok(marked.warnings.some((w) => w.includes("is marked untrusted")), marked.warnings.join("\n"));
  assert.deepEqual(marked.undecidedTrustWarnings, [], "a refusal is a decision");

  // A syntax error in an untrusted project's file is never read, so never an error.
  writeFileSync(join(root, ".codex", "config.toml"), "model = \n");
  assert.equal(load(h, { cwd: pkg }).model, "gpt-5.5");
});

void test("trust may be given for the folder itself, the project root or the git repository root (trailing slash allowed)", () => {
  const h = home("");
  const { root, pkg } = project(h, 'model = "root"\n', 'model = "pkg"\n');
  writeFileSync(h.file, `[projects."${pkg}"]\ntrust_level = "trusted"\n`);
  // Only pkg is trusted: the root's file is skipped, pkg's loads.
  const c = load(h, { cwd: pkg });
  assert.equal(c.model, "pkg");
  assert.ok(c.warnings.some((w) => w.startsWith(`${join(root, ".codex", "config.toml")} is not loaded`)));
  writeFileSync(h.file, `[projects."${root}/"]\ntrust_level = "trusted"\n`);
  assert.equal(load(h, { cwd: pkg }).model, "pkg");
  assert.deepEqual(load(h, { cwd: pkg }).configFiles.length, 3);
});

void test("a worktree is trusted through its main checkout", () => {
  const h = home("");
  const main = join(h.cwd, "main");
  const wt = join(h.cwd, "wt");
  mkdirSync(join(main, ".git", "worktrees", "wt"), { recursive: true });
  mkdirSync(join(wt, ".codex"), { recursive: true });
  writeFileSync(join(wt, ".git"), `gitdir: ${join(main, ".git", "worktrees", "wt")}\n`);
  writeFileSync(join(wt, ".codex", "config.toml"), 'model = "wt"\n');
  writeFileSync(h.file, `[projects."${main}"]\ntrust_level = "trusted"\n`);
  assert.equal(load(h, { cwd: wt }).model, "wt");
});

void test("project files cannot choose the provider, notify program or profile; their paths are relative to .codex", () => {
  const h = home('[profiles.p]\nmodel = "p"\n[model_providers.mine]\nbase_url = "http://127.0.0.1:1/v1"\n');
  const { root } = project(h, 'model_provider = "mine"\nnotify = ["evil"]\nprofile = "p"\nmodel_instructions_file = "prompt.md"\n');
  writeFileSync(join(root, ".codex", "prompt.md"), "project prompt");
  const c = load(h, { cwd: root, overrides: [`projects."${root}".trust_level=trusted`] });
  assert.equal(c.modelProviderId, "openai");
  assert.equal(c.notify, null);
  assert.equal(c.profile, null);
  assert.equal(c.model, "gpt-5.5");
  assert.equal(c.baseInstructionsOverride, "project prompt");
  assert.ok(c.warnings.some((w) => w.includes("model_provider, notify, profile are ignored in a project config")), c.warnings.join("\n"));
});

void test("a syntax error in a trusted project file is an error with file:line:col", () => {
  const h = home("");
  const { root } = project(h, 'model = "ok"\nsandbox_mode = \n');
  assert.match(failure(h, { cwd: root, overrides: [`projects."${root}".trust_level=trusted`] }), new RegExp(`^${escape(join(root, ".codex", "config.toml"))}:2:16: invalid TOML: `));
});

void test("defaults: gpt-5.5 on the openai provider, read-only sandbox, OPENAI_BASE_URL honoured", () => {
  const h = home(null);
  const config = load(h, { env: { ...h.env, OPENAI_BASE_URL: "http://127.0.0.1:1/v1" } });
  assert.equal(config.model, "gpt-5.5");
  assert.equal(config.provider.id, "openai");
  assert.equal(config.provider.baseUrl, "http://127.0.0.1:1/v1");
  assert.equal(config.sandboxPolicy.type, "read-only");
  assert.equal(config.approvalPolicy, "on-request");
  assert.deepEqual(config.history, { persistence: "save-all" });
  assert.equal(config.notify, null);
  assert.deepEqual(config.mcpServers, {});
  assert.equal(config.projectDocMaxBytes, 32768);
  assert.deepEqual(config.projectRootMarkers, [".git"]);
  assert.equal(config.features.shell_tool, true);
  assert.equal(config.profile, null);
  assert.deepEqual(config.configFiles, []);
  assert.deepEqual(config.warnings, []);
});

void test("custom providers carry their retry settings and headers; built-in ids cannot be redefined", () => {
  const h = home(
    'model_provider = "az"\n[model_providers.az]\nname = "Azure"\nbase_url = "https://x.example/openai"\nenv_key = "AZ_KEY"\nquery_params = { api-version = "2025-04-01" }\nrequest_max_retries = 2\nstream_max_retries = 1000\n[model_providers.openai]\nbase_url = "http://evil.example"\n',
  );
  const c = load(h);
  const p = c.provider;
  assert.equal(p.name, "Azure");
  assert.equal(p.envKey, "AZ_KEY");
  assert.deepEqual({ ...p.queryParams }, { "api-version": "2025-04-01" });
  assert.equal(p.requestMaxRetries, 2);
  assert.equal(p.streamMaxRetries, 100, "capped");
  const openai = load(h, { overrides: ["model_provider=openai"] }).provider;
  assert.equal(openai.baseUrl, "https://api.openai.com/v1");
  assert.deepEqual(c.warnings, [`${h.file}:9: model_providers.openai is ignored: the built-in provider 'openai' cannot be redefined`]);
});

void test("a wrong type or value is an error naming file:line and the key; an unknown key is only a warning", () => {
  const bad = home('# settings\nmodel = 5\n');
  assert.equal(failure(bad), `${bad.file}:2: model: expected a string, got integer 5`);
  const mode = home('sandbox_mode = "everything"\n');
  assert.equal(failure(mode), `${mode.file}:1: sandbox_mode: 'everything' is not one of read-only, workspace-write, danger-full-access`);
  const nested = home('[sandbox_workspace_write]\nwritable_roots = "/tmp"\n');
  assert.equal(failure(nested), `${nested.file}:2: sandbox_workspace_write.writable_roots: expected an array of paths (strings), got "/tmp"`);
  const inline = home('[model_providers.az]\nbase_url = "http://x"\nhttp_headers = { X-A = 1 }\n');
  assert.equal(failure(inline), `${inline.file}:3: model_providers.az.http_headers.X-A: expected a string, got integer 1`);
  const two = home('model = 1\nhide_agent_reasoning = "no"\n');
  assert.equal(failure(two), `${two.file}:1: model: expected a string, got integer 1\n${two.file}:2: hide_agent_reasoning: expected a boolean (true or false), got "no"`);

  const unknown = home('modle = "typo"\n[sandbox_workspace_write]\nnetwork = true\n[profiles.p]\nmodle = 1\n[mcp_servers.m]\ncommand = "x"\nargz = []\n');
  const c = load(unknown);
  assert.deepEqual(c.warnings, [
    `${unknown.file}:1: unknown config key 'modle' is ignored (did you mean model?)`,
    `${unknown.file}:3: unknown config key 'sandbox_workspace_write.network' is ignored (did you mean network_access?)`,
    `${unknown.file}:5: unknown config key 'profiles.p.modle' is ignored (did you mean model?)`,
    `${unknown.file}:8: unknown config key 'mcp_servers.m.argz' is ignored (did you mean args?)`,
  ]);
});

void test("-c errors and warnings name the override", () => {
  const h = home(null);
  assert.equal(failure(h, { overrides: ["model_verbosity=loud"] }), "-c model_verbosity=loud: model_verbosity: 'loud' is not one of low, medium, high");
  assert.equal(failure(h, { overrides: ["project_doc_max_bytes=lots"] }), '-c project_doc_max_bytes=lots: project_doc_max_bytes: expected an integer, got "lots"');
  assert.equal(failure(h, { overrides: ["nothing"] }), "-c nothing: expected key=value");
  assert.deepEqual(load(h, { overrides: ["sandbox_workspace_write.netwrk=true"] }).warnings, [
    "-c sandbox_workspace_write.netwrk=true: unknown config key 'sandbox_workspace_write.netwrk' is ignored",
  ]);
});

void test("a syntax error in config.toml is reported as file:line:col", () => {
  const h = home('model = "a"\nprofile = \n');
  const message = failure(h);
  assert.match(message, new RegExp(`^${escape(h.file)}:2:11: invalid TOML: missing value after '='\\n`));
  assert.match(message, /2 \| profile =/, "with the line");
});

void test("profiles: selected by `profile =`, by -c, or by --profile; an unknown one is an error saying where it was chosen", () => {
  const h = home('profile = "a"\n[profiles.a]\nmodel = "A"\n[profiles.b]\nmodel = "B"\nproject_doc_max_bytes = 1\n');
  assert.equal(load(h).model, "A");
  assert.equal(load(h, { overrides: ["profile=b"] }).model, "B");
  assert.equal(load(h, { profile: "b" }).model, "B");
  const b = load(h, { profile: "b" });
  assert.equal(b.projectDocMaxBytes, 32768, "a key that is not a profile setting is ignored");
  assert.ok(b.warnings.some((w) => w.includes("'profiles.b.project_doc_max_bytes' is ignored")));
  assert.equal(load(h, { overrides: ['profiles.c.model="C"'], profile: "c" }).model, "C");

  assert.equal(
    failure(h, { profile: "nope" }),
    `--profile nope: no profile 'nope': neither ${join(h.home, "nope.config.toml")} nor a [profiles.nope] table in ${h.file} exists`,
  );
  assert.match(failure(h, { overrides: ["profile=nope"] }), /^-c profile=nope: profile: no profile 'nope': neither /);
  const fromFile = home('\nprofile = "gone"\n');
  assert.match(failure(fromFile), new RegExp(`^${escape(fromFile.file)}:2: profile: no profile 'gone': neither `));
});

void test("an unknown model provider is an error at the line that chose it", () => {
  const h = home('[profiles.p]\nmodel_provider = "nope"\n');
  assert.equal(
    failure(h, { profile: "p" }),
    `${h.file}:2: model_provider: 'nope' is not a built-in provider or defined under [model_providers] (known: openai, ollama, lmstudio)`,
  );
  assert.match(failure(h, { overrides: ["model_provider=nah"] }), /^-c model_provider=nah: model_provider: 'nah' is not a built-in provider/);
});

void test("features: [features], profile features, legacy names and --enable/--disable, last one winning", () => {
  const h = home('[features]\nmemories = true\nshell_tool = false\nunknown_thing = true\n[profiles.p.features]\nmemories = false\n');
  const c = load(h);
  assert.equal(c.features.memories, true);
  assert.equal(c.features.shell_tool, false);
  assert.equal(c.features.unknown_thing, undefined);
  assert.deepEqual(c.warnings, [
    `${h.file}:4: unknown feature 'unknown_thing' (features.unknown_thing) is ignored`,
    // Accepted so the file loads, but nothing silently: codex-ts says it does not act on it.
    "features.memories is accepted, but codex-ts does not act on it",
  ]);
  assert.equal(load(h, { profile: "p" }).features.memories, false);
  const flags = load(h, { profile: "p", enable: ["memories", "collab"], disable: ["shell_snapshot"], overrides: ["features.memories=false"] });
  assert.equal(flags.features.memories, true, "--enable beats -c and the profile");
  assert.equal(flags.features.multi_agent, true);
  assert.equal(flags.features.shell_snapshot, false);
  // A removed feature the reference pins keeps its value.
  assert.equal(load(h, { enable: ["undo"] }).features.undo, false);
  // On the command line an unknown name is an error, as in the reference.
  assert.equal(failure(h, { enable: ["memoires"] }), "--enable memoires: unknown feature flag 'memoires' (did you mean memories?) (`codex-ts features list` names them all)");
  assert.match(failure(h, { disable: ["nosuch"] }), /^--disable nosuch: unknown feature flag 'nosuch'/);
});

void test("notify, history, mcp_servers and project doc settings are exposed typed", () => {
  const h = home(
    [
      'notify = ["python3", "/n.py"]',
      'mcp_oauth_credentials_store = "file"',
      "mcp_oauth_callback_port = 5555",
      "project_doc_max_bytes = 100",
      'project_doc_fallback_filenames = ["CLAUDE.md"]',
      "[history]",
      'persistence = "none"',
      "max_bytes = 1000",
      "[mcp_servers.docs]",
      'command = "npx"',
      'args = ["-y", "docs"]',
      'env = { A = "1" }',
      "startup_timeout_ms = 2500",
      "[mcp_servers.remote]",
      'url = "https://m.example/mcp"',
      'bearer_token_env_var = "TOK"',
      "enabled = false",
      'enabled_tools = ["search"]',
      "[mcp_servers.tracker]",
      'url = "https://t.example/mcp"',
      'scopes = ["issues:read"]',
      'oauth_resource = "https://t.example/"',
      "[mcp_servers.tracker.oauth]",
      'client_id = "cid"',
      'token_endpoint_auth_method = "client_secret_post"',
    ].join("\n"),
  );
  const c = load(h);
  assert.deepEqual(c.notify, ["python3", "/n.py"]);
  assert.deepEqual(c.history, { persistence: "none", max_bytes: 1000 });
  assert.equal(c.projectDocMaxBytes, 100);
  assert.deepEqual(c.projectDocFallbackFilenames, ["CLAUDE.md"]);
  assert.deepEqual(c.mcpServers.docs, {
    transport: "stdio",
    command: "npx",
    args: ["-y", "docs"],
    env: { A: "1" },
    env_vars: [],
    cwd: null,
    enabled: true,
    required: false,
    startup_timeout_sec: 2.5,
    tool_timeout_sec: 60,
    enabled_tools: null,
    disabled_tools: [],
  });
  assert.deepEqual(c.mcpServers.remote, {
    transport: "streamable_http",
    url: "https://m.example/mcp",
    bearer_token_env_var: "TOK",
    http_headers: {},
    env_http_headers: {},
    scopes: [],
    enabled: false,
    required: false,
    startup_timeout_sec: 10,
    tool_timeout_sec: 60,
    enabled_tools: ["search"],
    disabled_tools: [],
    oauth: { client_id: null, client_secret: null, token_endpoint_auth_method: null, callback_url: null },
    oauth_resource: null,
    oauth_credentials_store: "file",
    oauth_callback_port: 5555,
    oauth_callback_url: null,
    oauth_client_metadata_url: null,
  });
  assert.deepEqual(c.mcpServers.tracker?.transport === "streamable_http" && [c.mcpServers.tracker.scopes, c.mcpServers.tracker.oauth, c.mcpServers.tracker.oauth_resource], [
    ["issues:read"],
    { client_id: "cid", client_secret: null, token_endpoint_auth_method: "client_secret_post", callback_url: null },
    "https://t.example/",
  ]);
  const bad = home('[mcp_servers.x]\nargs = ["a"]\n');
  assert.equal(failure(bad), `${bad.file}:1: mcp_servers.x: needs command (a stdio server) or url (a streamable HTTP server)`);
});

void test("--oss picks oss_provider (default ollama) with its default model and honours CODEX_OSS_BASE_URL / CODEX_OSS_PORT", () => {
  const h = home(null);
  const ollama = load(h, { oss: true });
  assert.equal(ollama.modelProviderId, "ollama");
  assert.equal(ollama.model, "gpt-oss:20b");
  assert.equal(ollama.provider.baseUrl, "http://localhost:11434/v1");
  const lm = home('oss_provider = "lmstudio"\nmodel = "ignored-with-oss"\n');
  const l = load(lm, { oss: true, env: { ...lm.env, CODEX_OSS_PORT: "4321" } });
  assert.equal(l.modelProviderId, "lmstudio");
  assert.equal(l.model, "openai/gpt-oss-20b");
  assert.equal(l.provider.baseUrl, "http://localhost:4321/v1");
  assert.equal(load(lm, { oss: true, model: "qwen3" }).model, "qwen3");
  assert.equal(load(h, { oss: true, localProvider: "lmstudio", env: { ...h.env, CODEX_OSS_BASE_URL: "http://box:9/v1" } }).provider.baseUrl, "http://box:9/v1");
  assert.equal(failure(h, { oss: true, localProvider: "vllm" }), "--local-provider vllm: 'vllm' is not one of ollama, lmstudio");
  const chat = home('oss_provider = "ollama-chat"\n');
  assert.equal(failure(chat), `${chat.file}:1: oss_provider: 'ollama-chat' is not one of ollama, lmstudio`);
});

void test("relative instruction files resolve against CODEX_HOME; a missing one is an error naming the key", () => {
  const h = home('model_instructions_file = "base.md"\n');
  writeFileSync(join(h.home, "base.md"), "base prompt");
  assert.equal(load(h).baseInstructionsOverride, "base prompt");
  const missing = home('\nmodel_instructions_file = "nope.md"\n');
  assert.match(failure(missing), new RegExp(`^${escape(missing.file)}:2: model_instructions_file: cannot read ${escape(join(missing.home, "nope.md"))}`));
});

void test("AGENTS.md files are gathered from the project root down to cwd, root first", () => {
  const h = home("");
  const root = join(h.cwd, "repo");
  const sub = join(root, "pkg");
  mkdirSync(join(root, ".git"), { recursive: true });
  mkdirSync(sub);
  writeFileSync(join(root, "AGENTS.md"), "root rules");
  writeFileSync(join(sub, "AGENTS.md"), "package rules");
  assert.equal(load(h, { cwd: sub }).userInstructions, "root rules\n\npackage rules");
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Writes more files into CODEX_HOME (profile files, `NAME.config.toml`). */
function withFiles(h: Home, files: Record<string, string>): Home {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(h.home, name), text);
  return h;
}

void test("--profile NAME layers $CODEX_HOME/NAME.config.toml over config.toml, any key included", () => {
  const h = withFiles(home('model = "base"\nmodel_verbosity = "low"\n[history]\npersistence = "none"\n'), {
    "fast.config.toml": 'model = "quick"\nproject_doc_max_bytes = 10\nlog_dir = "logs"\n[history]\nmax_bytes = 500\n',
  });
  const c = load(h, { profile: "fast" });
  assert.equal(c.profile, "fast");
  assert.equal(c.model, "quick");
  assert.equal(c.verbosity, "low", "keys the profile file does not set come from config.toml");
  assert.equal(c.projectDocMaxBytes, 10, "a profile file is a whole config file, not limited to profile keys");
  assert.deepEqual(c.history, { persistence: "none", max_bytes: 500 }, "tables merge key by key");
  assert.equal(c.toml.log_dir, join(h.home, "logs"), "relative paths are relative to CODEX_HOME");
  assert.deepEqual(c.configFiles, [h.file, join(h.home, "fast.config.toml")]);
  assert.deepEqual(c.warnings, []);
  assert.equal(load(h).model, "base", "without a profile the file is not read");
});

void test('profile = "NAME" in config.toml and -c profile=NAME select the profile file too', () => {
  const h = withFiles(home('profile = "fast"\nmodel = "base"\n'), { "fast.config.toml": 'model = "quick"\n', "deep.config.toml": 'model = "slow"\n' });
  assert.equal(load(h).model, "quick");
  assert.equal(load(h, { overrides: ["profile=deep"] }).model, "slow");
  assert.equal(load(h, { profile: "deep" }).model, "slow", "--profile beats profile =");
  assert.equal(load(h, { profile: "deep", overrides: ['model="flag"'] }).model, "flag", "-c beats the profile file");
  assert.equal(load(h, { profile: "deep", model: "cli" }).model, "cli");
});

void test("a trusted project's .codex/config.toml overrides the profile file, and the legacy table overrides both", () => {
  const h = home(null);
  const repo = join(h.cwd, "repo");
  mkdirSync(join(repo, ".git"), { recursive: true });
  mkdirSync(join(repo, ".codex"));
  writeFileSync(join(repo, ".codex", "config.toml"), 'model = "project"\n');
  writeFileSync(h.file, `model = "base"\n[projects.${JSON.stringify(repo)}]\ntrust_level = "trusted"\n[profiles.both]\nmodel_reasoning_effort = "high"\n`);
  writeFileSync(join(h.home, "file.config.toml"), 'model = "profile-file"\nmodel_reasoning_effort = "low"\n');
  writeFileSync(join(h.home, "both.config.toml"), 'model_verbosity = "high"\nmodel_reasoning_effort = "low"\n');
  assert.equal(load(h, { cwd: repo, profile: "file" }).model, "project");
  assert.equal(load(h, { cwd: repo, profile: "file" }).reasoningEffort, "low");

  const both = load(h, { cwd: repo, profile: "both" });
  assert.equal(both.reasoningEffort, "high", "the [profiles.NAME] table wins where both forms set a key");
  assert.equal(both.verbosity, "high", "the file's other keys still apply");
  assert.deepEqual(both.warnings, [
    `profile 'both' is defined twice, in ${join(h.home, "both.config.toml")} and as [profiles.both] in ${h.file}: both apply, and the table wins where both set a key (move its settings into ${join(h.home, "both.config.toml")} and remove the table)`,
  ]);
});

void test("a profile file may choose the trusted projects and the provider, as config.toml can", () => {
  const h = home('model = "base"\n');
  const repo = join(h.cwd, "repo");
  mkdirSync(join(repo, ".git"), { recursive: true });
  mkdirSync(join(repo, ".codex"));
  writeFileSync(join(repo, ".codex", "config.toml"), 'model = "project"\n');
  writeFileSync(
    join(h.home, "work.config.toml"),
    `model_provider = "local"\n[model_providers.local]\nbase_url = "http://127.0.0.1:9/v1"\n[projects.${JSON.stringify(repo)}]\ntrust_level = "trusted"\n`,
  );
  const c = load(h, { cwd: repo, profile: "work" });
  assert.equal(c.model, "project");
  assert.equal(c.provider.baseUrl, "http://127.0.0.1:9/v1");
});

void test("errors in a profile file name that file and line; unknown keys in it warn with the nearest key", () => {
  const h = withFiles(home(""), { "bad.config.toml": 'model = "a"\nsandbox_mode = "workspace"\n', "broken.config.toml": "[tui\n", "typo.config.toml": 'modle = "x"\nprofile = "other"\n' });
  const file = join(h.home, "bad.config.toml");
  assert.equal(failure(h, { profile: "bad" }), `${file}:2: sandbox_mode: 'workspace' is not one of read-only, workspace-write, danger-full-access (did you mean workspace-write?)`);
  assert.match(failure(h, { profile: "broken" }), new RegExp(`^${escape(join(h.home, "broken.config.toml"))}:1:5: invalid TOML: unclosed table header, expected '\\]'`));
  const typo = join(h.home, "typo.config.toml");
  assert.deepEqual(load(h, { profile: "typo" }).warnings, [
    `${typo}:1: unknown config key 'modle' is ignored (did you mean model?)`,
    `${typo}:2: profile has no effect inside a profile file`,
  ]);
});

void test("a missing profile names both places looked at, and where the profile was chosen", () => {
  const h = home('model = "a"\n\nprofile = "gone"\n');
  const file = join(h.home, "gone.config.toml");
  assert.equal(failure(h), `${h.file}:3: profile: no profile 'gone': neither ${file} nor a [profiles.gone] table in ${h.file} exists`);
  assert.equal(
    failure(h, { profile: "other" }),
    `--profile other: no profile 'other': neither ${join(h.home, "other.config.toml")} nor a [profiles.other] table in ${h.file} exists`,
  );
});

void test("a profile name that cannot be a file name is looked up only as a table", () => {
  const h = withFiles(home('[profiles."../x"]\nmodel = "table"\n'), { "x.config.toml": 'model = "outside"\n' });
  assert.equal(load(h, { profile: "../x" }).model, "table");
  assert.equal(failure(h, { profile: "a/b" }), `--profile a/b: no profile 'a/b': no [profiles."a/b"] table in ${h.file}`);
});
