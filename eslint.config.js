// Lint rules for codex-ts: typed rules for the sources, no `any`, no floating promises.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import boundaries from "eslint-plugin-boundaries";
import { importX } from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import { readdirSync } from "node:fs";

/**
 * The layers of src/ (docs/ARCHITECTURE.md): each folder may import only the folders listed for
 * it, which are all lower in the stack, so no import circle can form between folders. A new
 * upward import fails `npm test`.
 */
const LAYERS = {
  protocol: [],
  util: [],
  telemetry: ["protocol", "util"],
  patch: ["protocol", "util", "shell"],
  exec: ["protocol", "util"],
  sandbox: ["protocol", "util", "exec"],
  shell: ["protocol", "util"],
  safety: ["protocol", "util", "shell"],
  auth: ["protocol", "util"],
  model: ["protocol", "util", "telemetry"],
  rollout: ["protocol", "util", "telemetry", "patch", "model"],
  // Snapshots of the working tree and restoring them (undo, redo, rollback of files).
  undo: ["protocol", "util"],
  history: ["protocol", "util"],
  approval: ["protocol", "util", "telemetry", "sandbox", "safety", "exec"],
  config: ["protocol", "util", "telemetry", "exec", "sandbox", "model", "history", "rollout"],
  // Lifecycle hooks: finding them in the config layers, running them, reading their answers.
  hooks: ["protocol", "util", "exec", "config"],
  tools: ["protocol", "util", "telemetry", "patch", "exec", "sandbox", "safety", "shell", "model", "approval", "config", "hooks"],
  mcp: ["protocol", "util", "telemetry", "exec", "model", "approval", "config", "tools"],
  core: ["protocol", "util", "auth", "telemetry", "patch", "exec", "sandbox", "safety", "shell", "model", "rollout", "history", "approval", "config", "hooks", "tools", "mcp", "undo"],
  // The front-end host: the one way front ends reach the engine (threads, recorded threads, the
  // standalone commands' entry points).
  host: ["protocol", "util", "approval", "config", "core", "exec", "hooks", "mcp", "patch", "rollout", "sandbox", "undo"],
  // Text and items front ends show, made from the protocol's events alone.
  presentation: ["protocol", "util"],
  // The app-server protocol's framing and v2 shapes, and their conversions to and from the core's.
  "app-server-protocol": ["protocol", "util"],
  // A ThreadHandle over the app-server protocol (the remote UI's thread), and the client under it.
  "app-server-client": ["protocol", "util", "app-server-protocol"],
  // Fuzzy file search (listing a folder's files, scoring paths): the TUI's @ popup and the
  // app-server's fuzzyFileSearch share it; no part of the engine.
  "file-search": ["util"],
  // Front ends: the protocol, settings, credentials, the host and shared presentation; never the
  // engine's inner folders. Each lists only what it uses.
  tui: ["protocol", "util", "auth", "config", "host", "presentation", "app-server-client", "file-search"],
  "mcp-server": ["protocol", "util", "config", "host", "presentation"],
  "app-server": ["protocol", "util", "auth", "config", "host", "presentation", "app-server-protocol", "file-search"],
  acp: ["protocol", "util", "auth", "config", "host", "presentation"],
  cli: ["protocol", "util", "auth", "config", "host", "presentation", "tui", "mcp-server", "app-server", "acp"],
};

// A folder without a layer would escape the check: name it in LAYERS first. A file directly in
// src/ would belong to no layer at all (and could pass an upward import along): none may sit there.
for (const entry of readdirSync(new URL("./src", import.meta.url), { withFileTypes: true })) {
  if (entry.isDirectory() && !(entry.name in LAYERS)) throw new Error(`eslint.config.js: src/${entry.name} has no layer in LAYERS`);
  if (!entry.isDirectory()) throw new Error(`eslint.config.js: src/${entry.name} sits directly in src/; put it in the folder of its layer`);
}

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["src/**/*.ts", "test/**/*.ts"],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-floating-promises": "error",
      // A `default` branch counts as handling the rest; without one every case must be listed.
      "@typescript-eslint/switch-exhaustiveness-check": ["error", { considerDefaultExhaustiveForUnions: true }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", ignoreRestSiblings: true }],
    },
  },
  {
    files: ["src/**/*.ts"],
    ignores: ["src/**/*.test.ts"],
    plugins: { boundaries },
    settings: {
      "import/resolver": { typescript: { project: "tsconfig.json" } },
      "boundaries/elements": Object.keys(LAYERS).map((folder) => ({ type: folder, pattern: `src/${folder}` })),
    },
    rules: {
      "boundaries/dependencies": [
        "error",
        {
          default: "disallow",
          policies: Object.entries(LAYERS).map(([folder, allowed]) => ({
            from: { element: { type: folder } },
            allow: { to: { element: { types: { anyOf: [folder, ...allowed] } } } },
          })),
        },
      ],
    },
  },
  {
    // No source file over 600 lines: one that grows past it holds more than one concern and
    // should be split along them (docs/ARCHITECTURE.md).
    files: ["src/**/*.ts"],
    ignores: ["src/**/*.test.ts"],
    rules: { "max-lines": ["error", { max: 600, skipBlankLines: false, skipComments: false }] },
  },
  {
    // No file imports itself back through others (type-only imports too: they tie files as
    // tightly for a reader). Folders are kept acyclic by the layers above; this covers files.
    files: ["src/**/*.ts"],
    ignores: ["src/**/*.test.ts"],
    plugins: { "import-x": importX },
    settings: { "import-x/resolver-next": [createTypeScriptImportResolver({ project: "tsconfig.json" })], "import-x/extensions": [".ts", ".js"] },
    rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
  },
  {
    // pi-tui's index loads every component it has before the UI's first frame; the UI takes
    // its values from src/tui/pi-tui.ts, which imports only the files it needs.
    files: ["src/**/*.ts"],
    ignores: ["src/**/*.test.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "@mariozechner/pi-tui",
              allowTypeImports: true,
              message: "import pi-tui's values from src/tui/pi-tui.ts (the package index slows the UI's start-up); type imports are fine",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["bench/**/*.mjs", "scripts/**/*.mjs", "*.js"],
    languageOptions: {
      globals: Object.fromEntries(
        ["process", "console", "URL", "Buffer", "setTimeout", "clearTimeout", "performance"].map((g) => [g, "readonly"]),
      ),
    },
  },
);
