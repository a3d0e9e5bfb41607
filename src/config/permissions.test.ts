import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig, type CliConfigInput, type Config } from "./load-config.js";
import { configErrorOf } from "../../test/support/config-error.js";
import { globText } from "../sandbox/fs-rules.js";

interface Home {
  env: NodeJS.ProcessEnv;
  cwd: string;
  user: string;
}

function home(configToml: string): Home {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "codex-ts-permissions-")));
  for (const dir of ["codex", "work", "user"]) mkdirSync(join(root, dir));
  writeFileSync(join(root, "codex", "config.toml"), configToml);
  return { env: { CODEX_HOME: join(root, "codex"), HOME: join(root, "user"), TMPDIR: join(root, "tmp") }, cwd: join(root, "work"), user: join(root, "user") };
}

const load = (h: Home, more: Partial<CliConfigInput> = {}): Config => loadConfig({ cwd: h.cwd, overrides: [], env: h.env, ...more });

const failure = (h: Home, more: Partial<CliConfigInput> = {}): string => configErrorOf(() => load(h, more));

const globs = (config: Config): string[] => config.fileSystemRules.denyGlobs.map(globText).sort();
const SSH = "id_{rsa,dsa,ecdsa,ecdsa_sk,ed25519,ed25519_sk}";

void test("sandbox_mode keeps its policy and gets the built-in denials: .env files and SSH keys in the project, SSH keys in ~/.ssh", () => {
  const h = home('sandbox_mode = "workspace-write"\n[sandbox_workspace_write]\nnetwork_access = true\nwritable_roots = ["/data"]\n');
  const config = load(h, { addDirs: ["/extra"] });
  assert.equal(config.permissionProfile, null);
  assert.deepEqual(config.sandboxPolicy, {
    type: "workspace-write",
    writable_roots: ["/data", "/extra"],
    network_access: true,
    exclude_tmpdir_env_var: false,
    exclude_slash_tmp: false,
  });
  assert.deepEqual(globs(config), [join(h.cwd, "**/.env"), join(h.cwd, `**/${SSH}`), join(h.user, ".ssh", SSH)].sort());
  assert.deepEqual(config.fileSystemRules.paths, []);
  assert.deepEqual(config.fileSystemRules.searchRoots, [h.cwd]);

  const readOnly = load(home(""));
  assert.equal(readOnly.sandboxPolicy.type, "read-only");
  assert.equal(readOnly.fileSystemRules.denyGlobs.length, 3);
  // Full access means no sandbox, so there is nothing to enforce denials with.
  const full = load(home('sandbox_mode = "danger-full-access"\n'));
  assert.deepEqual(full.fileSystemRules.denyGlobs, []);
});

void test("a profile extending :workspace writes the project and temporary folders and adds its own denials", () => {
  const h = home(
    [
      'default_permissions = "locked"',
      "[permissions.locked]",
      'extends = ":workspace"',
      "[permissions.locked.filesystem]",
      '":project_roots" = { "secrets/**" = "none", "config/prod.json" = "deny" }',
      '"~/.aws" = "none"',
      "glob_scan_max_depth = 4",
      "[permissions.locked.network]",
      "enabled = true",
    ].join("\n"),
  );
  const config = load(h);
  assert.equal(config.permissionProfile, "locked");
  assert.deepEqual(config.sandboxPolicy, { type: "workspace-write", writable_roots: [], network_access: true, exclude_tmpdir_env_var: false, exclude_slash_tmp: false });
  assert.deepEqual(
    config.fileSystemRules.paths.map((r) => `${r.access} ${r.path}`).sort(),
    [`none ${join(h.cwd, "config/prod.json")}`, `none ${join(h.user, ".aws")}`].sort(),
  );
  // The literal part of a glob becomes its base, so the walk starts as deep as it can.
  assert.ok(config.fileSystemRules.denyGlobs.some((g) => g.base === join(h.cwd, "secrets") && g.pattern === "**"));
  assert.equal(config.fileSystemRules.globScanMaxDepth, 4);
  assert.equal(globs(config).length, 4);
});

void test("an extending profile turns an inherited denial off with the same key, and a bare profile has none", () => {
  const h = home(
    [
      'default_permissions = "open"',
      "[permissions.open]",
      'extends = ":read-only"',
      "[permissions.open.filesystem]",
      '":project_roots" = { "**/.env" = "read" }',
      "[permissions.bare.filesystem]",
      '":root" = "read"',
    ].join("\n"),
  );
  assert.deepEqual(globs(load(h)), [join(h.cwd, `**/${SSH}`), join(h.user, ".ssh", SSH)].sort());
  const bare = load(h, { permissionProfile: "bare" });
  assert.equal(bare.sandboxPolicy.type, "read-only");
  assert.deepEqual(globs(bare), []);
});

void test("a read-only project with one writable folder keeps the working directory read-only inside workspace-write", () => {
  const h = home(['default_permissions = "out"', "[permissions.out.filesystem]", '":root" = "read"', '":project_roots" = { "." = "read", "out" = "write" }'].join("\n"));
  const config = load(h);
  assert.deepEqual(config.sandboxPolicy, {
    type: "workspace-write",
    writable_roots: [join(h.cwd, "out")],
    network_access: false,
    exclude_tmpdir_env_var: true,
    exclude_slash_tmp: true,
  });
  // Read-only over the working directory, then the writable folder inside it again.
  assert.deepEqual(config.fileSystemRules.paths, [
    { path: h.cwd, access: "read" },
    { path: join(h.cwd, "out"), access: "write" },
  ]);
});

void test("sandbox_mode and default_permissions do not combine: a warning names both places, -c of both is an error, -P wins over a file", () => {
  const h = home(['sandbox_mode = "read-only"', 'default_permissions = "locked"', "[permissions.locked]", 'extends = ":workspace"'].join("\n"));
  const config = load(h);
  assert.equal(config.sandboxPolicy.type, "read-only");
  assert.equal(config.permissionProfile, null);
  assert.ok(
    config.warnings.some((w) => w.includes(':2: default_permissions = "locked" is not used') && w.includes("because sandbox_mode is set (") && w.includes("config.toml:1)")),
    config.warnings.join("\n"),
  );
  assert.match(failure(home(""), { overrides: ['sandbox_mode="read-only"', 'default_permissions=":workspace"'] }), /`sandbox_mode` and `default_permissions` overrides cannot both be set/);
  const chosen = load(h, { permissionProfile: "locked" });
  assert.equal(chosen.permissionProfile, "locked");
  assert.equal(chosen.sandboxPolicy.type, "workspace-write");
  assert.match(failure(h, { permissionProfile: "locked", sandboxMode: "read-only" }), /-P\/--permissions cannot be combined with --sandbox/);
  // The built-in full access profile is no sandbox at all, and denies nothing.
  const full = load(h, { permissionProfile: ":danger-full-access" });
  assert.deepEqual(full.sandboxPolicy, { type: "danger-full-access" });
  assert.deepEqual(full.fileSystemRules.denyGlobs, []);
});

void test("bad profiles are refused with what is wrong and where", () => {
  assert.match(failure(home('default_permissions = "lockd"\n[permissions.locked.filesystem]\n":root" = "read"\n')), /`lockd` is not defined \(defined: locked\) \(did you mean locked\?\)/);
  assert.match(failure(home('default_permissions = ":workspac"\n')), /`:workspac` is not a built-in permissions profile .*did you mean :workspace\?/);
  assert.match(failure(home('default_permissions = "a"\n[permissions.a]\nextends = "b"\n[permissions.b]\nextends = "a"\n')), /extends itself: a → b → a/);
  assert.match(failure(home('[permissions.":mine".filesystem]\n":root" = "read"\n')), /uses the `:` prefix/);
  assert.match(failure(home('[permissions.p.filesystem]\n":project_root" = "read"\n')), /config\.toml:1: permissions\.p\.filesystem: `:project_root` is not a special path .*did you mean :project_roots\?/);
  assert.match(failure(home('[permissions.p.filesystem]\n"secrets" = "none"\n')), /filesystem path `secrets` must be absolute, start with `~\/`/);
  assert.match(failure(home('[permissions.p.filesystem]\n"/x" = "hidden"\n')), /`\/x` = "hidden": the access must be "read", "write" or "none"/);
  assert.match(failure(home('[permissions.p.filesystem]\n":project_roots" = { "/abs" = "none" }\n')), /paths below a root must be relative/);
  assert.match(failure(home('[permissions.p.filesystem]\nglob_scan_max_depth = 0\n')), /glob_scan_max_depth must be an integer of at least 1/);
  assert.match(failure(home('[permissions.p.network]\nenabled = "yes"\n')), /enabled must be true or false/);
  // Limiting reads to some folders is not something the sandbox layers do yet: said, not ignored.
  assert.match(failure(home('default_permissions = "p"\n[permissions.p.filesystem]\n":minimal" = "read"\n":project_roots" = { "." = "write" }\n')), /needs `":root" = "read"`/);
});

void test("patterns can only deny, and the reference's proxy settings are accepted but said to be unenforced", () => {
  const h = home(
    ['default_permissions = "p"', "[permissions.p.filesystem]", '":root" = "read"', '":project_roots" = { "**/*.md" = "write" }', "[permissions.p.network]", "enabled = true", 'domains = { "example.com" = "allow" }'].join("\n"),
  );
  const config = load(h);
  assert.ok(config.warnings.some((w) => w.includes('`:project_roots` = { "**/*.md" = "write" } is ignored: only "none" can be given to a pattern')), config.warnings.join("\n"));
  assert.ok(config.warnings.some((w) => w.includes("permissions.p.network.domains is not enforced by codex-ts")), config.warnings.join("\n"));
  // Network without writes: workspace-write with nothing writable, the working directory kept read-only.
  assert.equal(config.sandboxPolicy.type, "workspace-write");
  assert.deepEqual(config.fileSystemRules.paths, [{ path: h.cwd, access: "read" }]);
});

void test("a trusted project adds its own profile and denials in .codex/config.toml", () => {
  const h = home("");
  const repo = join(h.cwd, "repo");
  mkdirSync(join(repo, ".git"), { recursive: true });
  mkdirSync(join(repo, ".codex"));
  writeFileSync(
    join(repo, ".codex", "config.toml"),
    ['default_permissions = "repo"', "[permissions.repo]", 'extends = ":workspace"', "[permissions.repo.filesystem]", '":project_roots" = { "fixtures/keys/**" = "none" }'].join("\n"),
  );
  const untrusted = loadConfig({ cwd: repo, overrides: [], env: h.env });
  assert.equal(untrusted.permissionProfile, null);
  const trusted = loadConfig({ cwd: repo, overrides: [`projects."${repo}".trust_level="trusted"`], env: h.env });
  assert.equal(trusted.permissionProfile, "repo");
  assert.ok(trusted.fileSystemRules.denyGlobs.some((g) => g.base === join(repo, "fixtures/keys")));
});

void test("the built-in denials are marked as such until a profile writes the same entry itself", () => {
  const marked = (config: Config): string[] => config.fileSystemRules.denyGlobs.map((g) => `${globText(g)}${g.byDefault === true ? " (built-in)" : ""}`).sort();
  const legacy = home('sandbox_mode = "workspace-write"\n');
  assert.deepEqual(marked(load(legacy)), [`${join(legacy.cwd, "**/.env")} (built-in)`, `${join(legacy.cwd, `**/${SSH}`)} (built-in)`, `${join(legacy.user, ".ssh", SSH)} (built-in)`].sort());

  const h = home(
    [
      'default_permissions = "mine"',
      "[permissions.base]",
      'extends = ":workspace"',
      "[permissions.base.filesystem]",
      '":project_roots" = { "**/.env" = "none" }',
      "[permissions.mine]",
      'extends = "base"',
      "[permissions.mine.filesystem]",
      '":project_roots" = { "secrets" = "none" }',
    ].join("\n"),
  );
  const config = load(h);
  // Written again in the chain: the user's own. Inherited untouched: still the built-in's.
  assert.deepEqual(marked(config), [join(h.cwd, "**/.env"), `${join(h.cwd, `**/${SSH}`)} (built-in)`, `${join(h.user, ".ssh", SSH)} (built-in)`].sort());
  assert.deepEqual(config.fileSystemRules.paths, [{ path: join(h.cwd, "secrets"), access: "none" }]);
});
