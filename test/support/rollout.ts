/** Reading the session files a test run left in its CODEX_HOME. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ChildProcess } from "node:child_process";

export interface StoredLine {
  timestamp: string;
  type: string;
  payload: Record<string, unknown>;
}

/** Every rollout file under `home/sessions`, sorted by path. */
export function rolloutFiles(home: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".jsonl")) out.push(path);
    }
  };
  walk(join(home, "sessions"));
  return out.sort();
}

/** The single rollout file of thread `id`. */
export function rolloutFileOf(home: string, id: string): string {
  const files = rolloutFiles(home).filter((f) => f.endsWith(`-${id}.jsonl`));
  if (files.length !== 1) throw new Error(`expected one rollout file for ${id}, found ${files.length}: ${rolloutFiles(home).join(", ")}`);
  return files[0] ?? "";
}

/** Parses every line; throws on any line that is not JSON (the files must stay valid JSON Lines). */
export function readLines(path: string): StoredLine[] {
  const text = readFileSync(path, "utf8");
  if (text.length > 0 && !text.endsWith("\n")) throw new Error(`${path} does not end with a newline`);
  return text
    .split("\n")
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as StoredLine);
}

/** The response_item payloads of a file, in order. */
export function responseItems(path: string): Array<Record<string, unknown>> {
  return readLines(path)
    .filter((l) => l.type === "response_item")
    .map((l) => l.payload);
}

/** The thread id from exec --json output's thread.started. */
export function threadIdOf(events: Array<Record<string, unknown>>): string {
  const started = events.find((e) => e.type === "thread.started");
  if (typeof started?.thread_id !== "string") throw new Error(`no thread.started in ${JSON.stringify(events)}`);
  return started.thread_id;
}

/** Calls `onEvent` for each exec --json event the child prints (alongside runCli's own capture). */
export function watchEvents(child: ChildProcess, onEvent: (event: Record<string, unknown>) => void): void {
  let pending = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) if (line.trim()) onEvent(JSON.parse(line) as Record<string, unknown>);
  });
}
