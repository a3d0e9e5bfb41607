// Lint rules for codex-ts: typed rules for the sources, no `any`, no floating promises.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

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
    files: ["bench/**/*.mjs", "*.js"],
    languageOptions: {
      globals: Object.fromEntries(
        ["process", "console", "URL", "Buffer", "setTimeout", "clearTimeout", "performance"].map((g) => [g, "readonly"]),
      ),
    },
  },
);
