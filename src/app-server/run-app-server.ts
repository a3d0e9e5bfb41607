/**
 * `codex-ts app-server`: serves the app-server protocol over stdio (the default) or WebSockets
 * (`--listen ws://HOST:PORT`). Over stdio the server ends when stdin does; over WebSockets on
 * SIGINT / SIGTERM. Either way every thread is shut down first (its commands and MCP servers end).
 * Diagnostics go to stderr, never into the protocol stream.
 */
import { AppServer } from "./server.js";
import { listenWebSocket, serveStdio } from "./transports.js";
import { WsAuthError, wsAuthFromOptions, type WsAuthOptions } from "./ws-auth.js";

export interface AppServerCliOptions extends WsAuthOptions {
  listen?: string;
  stdio?: boolean;
  config: string[];
  enable: string[];
  disable: string[];
}

type Listen = { kind: "stdio" } | { kind: "ws"; host: string; port: number };

/** `--listen`'s URL, or a message saying what is wrong with it. */
export function parseListen(value: string | undefined): Listen | string {
  if (value === undefined || value === "stdio" || value === "stdio://") return { kind: "stdio" };
  const ws = /^ws:\/\/(\[[0-9a-fA-F:.]+\]|[^:/]+):(\d{1,5})\/?$/.exec(value);
  if (ws?.[1] && ws[2]) {
    const port = Number(ws[2]);
    if (port > 65535) return `--listen ${value}: port ${port} is out of range`;
    return { kind: "ws", host: ws[1].replace(/^\[|\]$/g, ""), port };
  }
  if (value.startsWith("unix://") || value === "off") return `--listen ${value} is not supported by codex-ts (use stdio:// or ws://HOST:PORT)`;
  return `--listen ${value}: expected stdio:// or ws://HOST:PORT`;
}

export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export async function runAppServer(opts: AppServerCliOptions, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const fail = (message: string): number => {
    process.stderr.write(`codex-ts app-server: ${message}\n`);
    return 2;
  };
  const listen = parseListen(opts.stdio ? "stdio" : opts.listen);
  if (typeof listen === "string") return fail(listen);
  let auth;
  try {
    auth = wsAuthFromOptions(opts);
  } catch (err) {
    if (err instanceof WsAuthError) return fail(err.message);
    throw err;
  }
  const overrides = [...opts.config, ...opts.enable.map((f) => `features.${f}=true`), ...opts.disable.map((f) => `features.${f}=false`)];
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  const server = new AppServer({ env, overrides, log });
  const finish = async (): Promise<number> => {
    for (const warning of await server.shutdown()) log(warning);
    return 0;
  };

  if (listen.kind === "stdio") {
    await serveStdio((transport) => server.connect(transport));
    return finish();
  }
  if (auth.kind === "none" && !isLoopback(listen.host)) {
    return fail(`refusing to listen on ${listen.host}:${listen.port} without WebSocket auth: add --ws-auth capability-token or --ws-auth signed-bearer-token (or bind 127.0.0.1 and forward the port over SSH)`);
  }
  const listener = await listenWebSocket(listen.host, listen.port, auth, (transport) => server.connect(transport), log);
  const http = listener.url.replace(/^ws:/, "http:");
  log(`codex-ts app-server (WebSockets)\n  listening on: ${listener.url}\n  readyz: ${http}/readyz\n  healthz: ${http}/healthz\n  note: ${auth.kind === "none" ? "binds localhost only (use SSH port-forwarding for remote access)" : "clients must send Authorization: Bearer <token>"}`);
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await listener.close();
  return finish();
}
