/**
 * Lifecycle hooks for tests: the hooks.json written for Codex 0.169 (test/fixtures/lifecycle-hooks)
 * installed into a CODEX_HOME, hooks that record their stdin, and a registry for core sessions.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { HookRegistry } from "../../src/hooks/registry.js";
import type { HookSettings } from "../../src/config/hook-sources.js";

const FIXTURE = fileURLToPath(new URL("../../../test/fixtures/lifecycle-hooks/", import.meta.url));

/** Copies the fixture's hooks.json into `home` and its scripts into `home/hooks/`, unchanged. */
export function installFixtureHooks(home: string): void {
  mkdirSync(join(home, "hooks"), { recursive: true });
  for (const file of readdirSync(FIXTURE)) {
    if (file === "README.md") continue;
    copyFileSync(join(FIXTURE, file), file === "hooks.json" ? join(home, file) : join(home, "hooks", file));
  }
}

/** What the fixture's log-event.sh recorded, oldest first. */
export function fixtureEvents(home: string): Array<Record<string, unknown>> {
  return readRecords(join(home, "hooks", "events"));
}

/** A folder for a test's hooks, with `record.sh DIR` (its stdin kept as one file in DIR per run). */
export function hookDir(): { dir: string; record(label: string): string; records(label: string): Array<Record<string, unknown>> } {
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-hooks-"));
  const script = join(dir, "record.sh");
  // Written under a hidden name, then renamed: a test polling for the record never reads half of it.
  writeFileSync(script, '#!/bin/sh\nmkdir -p "$1"\ncat > "$1/.partial-$$" && mv "$1/.partial-$$" "$1/$(date +%s%N)-$$.json"\n');
  chmodSync(script, 0o755);
  return {
    dir,
    record: (label) => `sh ${JSON.stringify(script)} ${JSON.stringify(join(dir, "out", label))}`,
    records: (label) => readRecords(join(dir, "out", label)),
  };
}

function readRecords(dir: string): Array<Record<string, unknown>> {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => !f.startsWith("."))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as Record<string, unknown>);
}

/** One command hook, as hooks.json writes it. */
export function command(cmd: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: "command", command: cmd, ...extra };
}

/** Writes `{"hooks": events}` as `dir/hooks.json`. */
export function writeHooksJson(dir: string, events: Record<string, unknown>): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "hooks.json"), JSON.stringify({ hooks: events }, null, 2));
}

/** The hooks of `home` (its hooks.json, its config.toml's state) as a core session's registry. */
export function userRegistry(home: string, options: Partial<Pick<HookSettings, "bypassTrust">> = {}): HookRegistry {
  const configFile = join(home, "config.toml");
  return new HookRegistry({
    enabled: true,
    sources: [{ kind: "user", folder: home, configFile, table: undefined }],
    userConfigFile: configFile,
    stateOverrides: [],
    bypassTrust: options.bypassTrust ?? true,
  });
}
