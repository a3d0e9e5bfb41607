/**
 * Renders docs/config.md from the schema, so the documented keys, types and defaults cannot
 * drift from what the loader accepts. `node dist/src/config/write-docs.js` rewrites the file; a
 * test fails when the committed file differs from this output.
 */
import { FEATURE_ALIASES, FEATURES, HONOURED_FEATURES } from "./features.js";
import { CONFIG_SCHEMA, type Group, type KeySpec, type TomlLiteral, type ValueKind } from "./schema.js";
import { DEFAULT_OSS_MODELS } from "./oss.js";

const GROUPS: readonly Group[] = [
  "Model",
  "Model providers",
  "Sandbox and approvals",
  "Shell environment",
  "Instructions and AGENTS.md",
  "Features",
  "MCP servers",
  "Profiles",
  "Projects",
  "History and notifications",
  "Interface",
  "Authentication",
  "Sub-agents",
  "Other",
];

const INTRO = `# Configuration

<!-- Generated from src/config/schema.ts by \`node dist/src/config/write-docs.js\` after a build. Do not edit by hand: the tests compare this file with the schema. -->

codex-ts reads the Codex CLI's \`config.toml\` format: a \`config.toml\` written for the reference
works unchanged. Keys codex-ts does not act on yet are accepted (marked *not used yet* below) and
keys nobody defines draw a warning, never an error.

## Where settings come from

Lowest precedence first; each layer overrides the ones before it, key by key (tables merge,
other values, arrays included, replace):

1. Built-in defaults (the *Default* column below).
2. \`$CODEX_HOME/config.toml\` (\`CODEX_HOME\` defaults to \`~/.codex-ts\`). Relative paths in it are
   relative to \`$CODEX_HOME\`.
3. The active profile's file, \`$CODEX_HOME/NAME.config.toml\` (the reference's current form of a
   profile; see [Profiles](#profiles) below). It is a whole config file: any key may appear.
4. \`.codex/config.toml\` in each folder from the project root (the nearest folder holding one of
   \`project_root_markers\`, \`.git\` by default) down to the working directory, root first, so
   the closest folder wins. These load only for a **trusted** project:
   \`[projects."<abs path>"] trust_level = "trusted"\` in your own config.toml, for the folder,
   the project root or the git repository root. Otherwise they are skipped with a warning.
   Relative paths in them are relative to their \`.codex\` folder. They cannot set
   \`model_provider\`, \`model_providers\`, \`openai_base_url\`, \`chatgpt_base_url\`, \`notify\`,
   \`otel\`, \`profile\`, \`profiles\` or \`projects\` (ignored with a warning): a repository must not
   choose where your credentials go or which programs run.
5. The active profile's \`[profiles.NAME]\` table in config.toml (the older form), when there is one.
   Only the keys listed under Profiles may appear in it.
6. \`-c key=value\` overrides, in order. The key is a dotted path
   (\`-c sandbox_workspace_write.network_access=true\`), quoted parts allowed
   (\`-c 'projects."/src/app".trust_level="trusted"'\`); the value is parsed as TOML (\`42\`,
   \`true\`, \`["PATH","HOME"]\`, \`{ a = 1 }\`), and a value that is not TOML is taken as a string,
   so \`-c model=o3\` works without quotes. Relative paths are relative to the working directory.
7. Command-line flags: \`--model\`, \`--sandbox\`, \`--full-auto\`, \`-P\`/\`--permissions\`, \`--oss\`,
   and \`--enable NAME\` / \`--disable NAME\` (the same as \`-c features.NAME=true\` / \`=false\`).

## Permission profiles

\`default_permissions = "NAME"\` (or \`-P NAME\`) selects a \`[permissions.NAME]\` profile or a built-in
(\`:read-only\`, \`:workspace\`, \`:danger-full-access\`) instead of \`sandbox_mode\`: paths and
patterns mapped to \`"read"\`, \`"write"\` or \`"none"\` (off limits to every command and to the
agent's own reads). The two ways do not combine: when \`sandbox_mode\` is set anywhere it decides,
and a warning says the profile is not used. \`.env\` files and SSH private keys are off limits out
of the box; where only Landlock can confine commands (no usable bubblewrap), those built-in
denials are left out inside writable folders, with a warning, so that the project stays writable,
while a denial you write yourself (\`":project_roots" = { "**/.env" = "none" }\`) is always
enforced. The format, the built-ins and what enforces a denial are in
[sandbox.md](sandbox.md#permission-profiles-and-denied-paths).

## Profiles

A profile is a named set of settings chosen with \`--profile NAME\` (\`-p NAME\`), or by default
with \`profile = "NAME"\` in config.toml (or \`-c profile=NAME\`). It comes in two forms:

- \`$CODEX_HOME/NAME.config.toml\`, a config file of its own layered right over config.toml (layer
  3 above). This is what the reference uses now. A trusted project's \`.codex/config.toml\` still
  overrides it. Errors in it name that file and line.
- A \`[profiles.NAME]\` table in config.toml (layer 5), which the reference used before. It still
  works; it overrides project files, and only the profile keys may be set in it.

When both exist for one name, both apply where listed above, so the table wins for a key both
set, and a warning suggests moving the table's settings into the file (the reference refuses to
start in that case). When neither exists, the run stops with an error naming the file and the
table it looked for:

\`\`\`
Error loading config: --profile fast: no profile 'fast': neither /home/me/.codex-ts/fast.config.toml nor a [profiles.fast] table in /home/me/.codex-ts/config.toml exists
\`\`\`

A profile name used as a file name may hold letters, digits, \`.\`, \`_\` and \`-\` (not a leading \`.\`); any other name
is looked up only as a table.

## Errors and warnings

A value of the wrong type or outside the allowed values stops the run (\`codex-ts exec\` exits
with status 2) with the place to fix:

\`\`\`
Error loading config: /home/me/.codex-ts/config.toml:7: sandbox_mode: 'workspace' is not one of read-only, workspace-write, danger-full-access (did you mean workspace-write?)
Error loading config: -c model_verbosity=loud: model_verbosity: 'loud' is not one of low, medium, high
\`\`\`

A TOML syntax error names the file, line and column, says what is wrong in plain words and shows
the line with a caret under the spot:

\`\`\`
Error loading config: /home/me/.codex-ts/config.toml:3:5: invalid TOML: unclosed table header, expected ']'
  3 | [tui
    |     ^
\`\`\`

Other such messages: \`missing value after '='\`, \`string values must be quoted: write "o3"\`,
\`unterminated string, expected a closing " before the end of the line\`, \`duplicate key 'model':
it is already set\`, \`duplicate table [tui]\`, \`unclosed array, expected ']'\`, \`missing '=' after
the key 'model'\`.

Unknown keys (at any depth, for example inside \`[sandbox_workspace_write]\`, a
\`[model_providers.<id>]\` or a \`[profiles.<name>]\` table) and unknown feature names are reported
as warnings with their full dotted path and ignored; when a known key or feature is spelled
nearly the same, the warning names it. In \`[tui]\`, which codex-ts accepts without checking,
only a key spelled nearly like one the reference reads is reported:

\`\`\`
/home/me/.codex-ts/config.toml:4: unknown config key 'model_reasoning_efort' is ignored (did you mean model_reasoning_effort?)
\`\`\`

### Files a repository controls

A repository may hold files shaped to hurt: an \`AGENTS.md\` linked to \`/dev/zero\`, a FIFO named
\`.codex/config.toml\`, a 200 MB prompt. codex-ts reads only regular files (a FIFO, device or
socket is refused without waiting on it), and never more than it keeps: AGENTS.md files up to
\`project_doc_max_bytes\`, settings files (config.toml, profiles, rules, skills, prompts,
\`model_instructions_file\`) up to 1 MiB each. A refused or cut-short file is named: in a warning
for AGENTS.md, skills, prompts and \`.git\` metadata (which is then left out), in the error that
stops the start for a config or rules file, which must load whole. Session files (\`sessions\`,
resume, fork) and \`history.jsonl\` are read the same way: anything there that is not a regular
file is passed over.

## Local models (\`--oss\`)

\`--oss\` uses a local server as the model provider: \`--local-provider\` if given, else
\`oss_provider\`, else \`ollama\`. The built-in \`ollama\` (port 11434) and \`lmstudio\` (port 1234)
providers live at \`http://localhost:<port>/v1\`; \`CODEX_OSS_PORT\` changes the port and
\`CODEX_OSS_BASE_URL\` the whole URL. Without \`-m\` the model is ${Object.entries(DEFAULT_OSS_MODELS)
  .map(([id, model]) => `\`${model}\` (${id})`)
  .join(" or ")}
(the \`model\` setting does not apply). Before the run, codex-ts asks the server for
\`/models\` (2 s timeout) and stops with exit status 1 and a hint when nothing answers.
`;

export function renderConfigDocs(): string {
  const parts = [INTRO, "## Keys\n"];
  parts.push(
    "A `<name>` part of a key stands for a name you choose (a provider id, a server name, a path).",
    "*Not used yet*: accepted so that the reference's config loads, but codex-ts does not act on it yet.\n",
  );
  for (const group of GROUPS) {
    const specs = CONFIG_SCHEMA.filter((s) => s.group === group);
    if (specs.length === 0) continue;
    parts.push(`### ${group}\n`, "| Key | Type | Default | Description |", "|---|---|---|---|");
    for (const spec of specs) parts.push(`| \`${spec.key}\` | ${typeText(spec)} | ${defaultText(spec)} | ${cell(descriptionText(spec))} |`);
    const examples = specs.filter((s) => s.example?.includes("\n"));
    if (examples.length > 0) {
      parts.push("", "```toml", examples.map((s) => s.example).join("\n\n"), "```");
    }
    if (group === "Features") parts.push("", featureTable());
    parts.push("");
  }
  return `${parts.join("\n").trimEnd()}\n`;
}

function featureTable(): string {
  const rows = [
    "Feature flags (`[features]`, `--enable`, `--disable`) that codex-ts acts on (`codex-ts features list` prints every flag with its stage and effective value):",
    "",
    "| Feature | Stage | Default | What it does |",
    "|---|---|---|---|",
  ];
  const honoured = FEATURES.filter((f) => HONOURED_FEATURES.has(f.key));
  for (const f of honoured) rows.push(`| \`${f.key}\` | ${f.stage} | ${f.default} | ${cell(f.description ?? "")} |`);
  const others = FEATURES.filter((f) => !HONOURED_FEATURES.has(f.key)).map((f) => `\`${f.key}\``);
  rows.push(
    "",
    `The reference's other flags are accepted so its config files load, and change nothing here (setting one draws a warning): ${others.join(", ")}.`,
  );
  const aliases = Object.entries(FEATURE_ALIASES).map(([old, key]) => `\`${old}\` → \`${key}\``);
  rows.push("", `Older names still accepted: ${aliases.join(", ")}.`);
  return rows.join("\n");
}

function typeText(spec: KeySpec): string {
  if (spec.values) return `one of ${spec.values.map((v) => `\`${v}\``).join(", ")}`;
  const kinds: readonly ValueKind[] = typeof spec.type === "string" ? [spec.type] : spec.type;
  const text = kinds.map((k) => (k === "map" ? mapText(spec) : TYPE_NAMES[k])).join(" or ");
  const bounds = [spec.min !== undefined ? `≥ ${spec.min}` : "", spec.max !== undefined ? `≤ ${spec.max}` : ""].filter(Boolean).join(", ");
  return bounds ? `${text} (${bounds})` : text;
}

const TYPE_NAMES: Record<ValueKind, string> = {
  string: "string",
  path: "path",
  integer: "integer",
  number: "number",
  boolean: "boolean",
  "string[]": "array of strings",
  "path[]": "array of paths",
  table: "table",
  map: "table",
  any: "any",
};

/** `table of strings`: a map described by the type of its `<name>` entries. */
function mapText(spec: KeySpec): string {
  const depth = spec.key.split(".").length + 1;
  const entry = CONFIG_SCHEMA.find((s) => s.key.startsWith(`${spec.key}.<`) && s.key.split(".").length === depth);
  if (!entry) return "table";
  const kind = typeof entry.type === "string" ? entry.type : "any";
  const plural: Record<ValueKind, string> = {
    string: "strings",
    path: "paths",
    integer: "integers",
    number: "numbers",
    boolean: "booleans",
    "string[]": "string arrays",
    "path[]": "path arrays",
    table: "tables",
    map: "tables",
    any: "values",
  };
  return `table of ${plural[kind]}`;
}

function defaultText(spec: KeySpec): string {
  if (spec.default !== undefined) return `\`${literal(spec.default)}\``;
  if (spec.defaultText !== undefined) return cell(spec.defaultText);
  return "unset";
}

function descriptionText(spec: KeySpec): string {
  const notes = [spec.description];
  if (spec.unused) notes.push("*Not used yet.*");
  if (spec.userOnly) notes.push("Not read from project config files.");
  if (spec.example !== undefined && !spec.example.includes("\n")) notes.push(`Example: \`${spec.example}\`.`);
  return notes.join(" ");
}

function literal(value: TomlLiteral): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => JSON.stringify(v)).join(", ")}]`;
  return String(value);
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}
