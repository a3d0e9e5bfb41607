/**
 * The interactive UI under test: the real CLI in a pseudo-terminal (see pty.ts) against the
 * scripted model server, in a fresh workspace whose trust is not asked about unless `args`
 * say otherwise (see `tuiArgs`).
 */
import assert from "node:assert/strict";
import { makeWorkspace, tuiArgs, type Workspace } from "./cli.js";
import { startModelServer, type ModelServer, type ScriptedTurn } from "./model-server.js";
import { KEY, PtySession } from "./pty.js";

/** On screen once the composer is ready. */
export const READY = "Enter to send";

export interface Run {
  ui: PtySession;
  server: ModelServer;
  ws: Workspace;
}

export interface TuiRunOptions {
  args?: string[];
  ws?: Workspace;
  cols?: number;
  rows?: number;
  env?: Record<string, string | undefined>;
  /** The arguments that point the UI at the server (default: `tuiArgs`, trust not asked). */
  serverArgs?: (url: string) => string[];
  /** Wait for the composer before `body` (default true). */
  waitReady?: boolean;
}

export async function withTui(turns: ScriptedTurn[], opts: TuiRunOptions, body: (run: Run) => Promise<void>): Promise<void> {
  const server = await startModelServer(turns);
  const ws = opts.ws ?? makeWorkspace();
  const args = [...(opts.serverArgs ?? tuiArgs)(server.url), ...(opts.args ?? [])];
  const ui = new PtySession(args, { cwd: ws.dir, home: ws.home, cols: opts.cols ?? 100, rows: opts.rows ?? 30, env: opts.env });
  try {
    if (opts.waitReady !== false) await ui.waitFor(READY);
    await body({ ui, server, ws });
    assert.deepEqual(server.violations, []);
  } finally {
    ui.kill();
    await server.close();
  }
}

export async function send(ui: PtySession, message: string): Promise<void> {
  await ui.type(message);
  // Enter only once the composer shows the whole message: a loaded machine may lag behind the keys.
  if (!message.includes("\n")) await ui.waitFor(new RegExp(`^ ${message.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*$`, "m"));
  ui.write(KEY.enter);
}

export async function quit(ui: PtySession): Promise<number> {
  ui.write(KEY.ctrlD);
  return ui.exit();
}

/** The text of every message the model request carried. */
export function userTexts(server: ModelServer, index: number): string {
  return JSON.stringify(server.requests[index]?.body.input ?? []);
}
