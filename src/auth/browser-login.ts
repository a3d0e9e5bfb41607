/**
 * "Sign in with ChatGPT" in a browser: OAuth authorization code with PKCE. A small HTTP server on
 * 127.0.0.1 (the reference's port 1455, else its fallback 1457) receives the issuer's redirect at
 * `/auth/callback`, checks the state, exchanges the code, saves the login and sends the browser
 * to a page saying how it went. The TUI and `codex-ts login` both start it with
 * `startChatGptLogin`; it ends on success, on a failure the issuer reports, on `/cancel`, on
 * `cancel()` or when the time is up.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { CLIENT_ID, issuerUrl } from "./endpoints.js";
import type { ChatgptLogin } from "./auth-file.js";
import { checkIssuedWorkspace, exchangeCode, generatePkce, saveChatgptLogin } from "./sign-in.js";
import { failurePage, successPage } from "./login-pages.js";
import { sleep } from "../util/sleep.js";
import { errorMessage } from "../util/errors.js";

export const DEFAULT_LOGIN_PORT = 1455;
/** The second redirect port the issuer accepts for the reference's client. */
export const FALLBACK_LOGIN_PORT = 1457;
/** Ours: the callback port to try first (0 for any free port). */
export const LOGIN_PORT_ENV_VAR = "CODEX_TS_LOGIN_PORT";
export const DEFAULT_LOGIN_TIMEOUT_MS = 10 * 60_000;
const SCOPES = "openid profile email offline_access api.connectors.read api.connectors.invoke";

export interface ChatGptLoginOptions {
  codexHome: string;
  env: NodeJS.ProcessEnv;
  /** Told the address to open once the server listens (print it: the browser may not open). */
  onUrl?: (url: string, port: number) => void;
  /** `forced_chatgpt_workspace_id`: the workspaces the new login may belong to. */
  allowedWorkspaceIds?: string[] | null;
  /** Open the system browser (default true). */
  openBrowser?: boolean;
  timeoutMs?: number;
}

export interface ChatGptLoginHandle {
  /** The issuer's authorize URL the user must open. */
  url: string;
  /** The port the callback server listens on. */
  port: number;
  /** Settles once: the saved login, or why signing in failed. */
  done: Promise<ChatgptLogin>;
  cancel(): void;
}

export async function startChatGptLogin(opts: ChatGptLoginOptions): Promise<ChatGptLoginHandle> {
  const { createServer } = await import("node:http");
  const pkce = generatePkce();
  const state = randomBytes(32).toString("base64url");
  const issuer = issuerUrl(opts.env);

  let settle: { resolve(login: ChatgptLogin): void; reject(err: Error): void } | null = null;
  const done = new Promise<ChatgptLogin>((resolve, reject) => (settle = { resolve, reject }));
  // A caller may look at `done` only later (a TUI screen); an early failure must not crash the process meanwhile.
  done.catch(() => {});
  let redirectUri = "";

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => finish(res, new Error(`Sign-in failed: ${errorMessage(err)}`)));
  });
  const port = await listen(server, preferredPort(opts.env));
  redirectUri = `http://localhost:${port}/auth/callback`;
  const url = authorizeUrl(issuer, redirectUri, pkce.challenge, state, opts.env, opts.allowedWorkspaceIds ?? null);

  const timer = setTimeout(() => end(new Error(`Sign-in timed out after ${Math.round((opts.timeoutMs ?? DEFAULT_LOGIN_TIMEOUT_MS) / 1000)} s`)), opts.timeoutMs ?? DEFAULT_LOGIN_TIMEOUT_MS);
  timer.unref();

  function end(outcome: ChatgptLogin | Error): void {
    clearTimeout(timer);
    server.close();
    server.closeAllConnections();
    const s = settle;
    settle = null;
    if (!s) return;
    if (outcome instanceof Error) s.reject(outcome);
    else s.resolve(outcome);
  }

  /** Answers the browser, then ends the sign-in once the answer is on its way. */
  function finish(res: ServerResponse, outcome: ChatgptLogin | Error): void {
    const html = outcome instanceof Error ? failurePage(outcome.message) : successPage();
    send(res, 200, html, "text/html; charset=utf-8");
    res.on("finish", () => end(outcome));
  }

  let login: ChatgptLogin | null = null;
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = new URL(req.url ?? "/", "http://localhost");
    switch (target.pathname) {
      case "/auth/callback": {
        const params = target.searchParams;
        // Not our request (or a stale tab): refuse it and keep waiting for the right one.
        if (params.get("state") !== state) return send(res, 400, "State mismatch");
        const error = params.get("error");
        if (error) return finish(res, new Error(`Sign-in failed: ${params.get("error_description")?.trim() || error}`));
        const code = params.get("code");
        if (!code) return finish(res, new Error("Sign-in failed: the issuer sent no authorization code"));
        let issued;
        try {
          issued = await exchangeCode(opts.env, code, redirectUri, pkce.verifier);
          checkIssuedWorkspace(issued, opts.allowedWorkspaceIds);
        } catch (err) {
          return finish(res, new Error(`Sign-in failed: ${errorMessage(err)}`));
        }
        try {
          login = saveChatgptLogin(opts.codexHome, issued);
        } catch (err) {
          return finish(res, new Error(`Signed in, but the login could not be saved: ${errorMessage(err)}`));
        }
        res.writeHead(302, { location: "/success", connection: "close" });
        res.end();
        return;
      }
      case "/success":
        if (!login) return send(res, 404, "Not Found");
        return finish(res, login);
      case "/cancel":
        send(res, 200, "Login cancelled");
        res.on("finish", () => end(new Error("Login cancelled")));
        return;
      default:
        return send(res, 404, "Not Found");
    }
  }

  if (opts.openBrowser !== false) openInBrowser(url, opts.env);
  opts.onUrl?.(url, port);
  return { url, port, done, cancel: () => end(new Error("Login cancelled")) };
}

function authorizeUrl(issuer: string, redirectUri: string, challenge: string, state: string, env: NodeJS.ProcessEnv, workspaces: string[] | null): string {
  const query: Array<[string, string]> = [
    ["response_type", "code"],
    ["client_id", CLIENT_ID],
    ["redirect_uri", redirectUri],
    ["scope", SCOPES],
    ["code_challenge", challenge],
    ["code_challenge_method", "S256"],
    ["id_token_add_organizations", "true"],
    ["codex_cli_simplified_flow", "true"],
    ["state", state],
    ["originator", env.CODEX_INTERNAL_ORIGINATOR_OVERRIDE ?? "codex_cli_rs"],
  ];
  if (workspaces && workspaces.length > 0) query.push(["allowed_workspace_id", workspaces.join(",")]);
  return `${issuer}/oauth/authorize?${query.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&")}`;
}

function preferredPort(env: NodeJS.ProcessEnv): number {
  const raw = env[LOGIN_PORT_ENV_VAR]?.trim();
  if (!raw) return DEFAULT_LOGIN_PORT;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${LOGIN_PORT_ENV_VAR}: "${raw}" is not a port number`);
  return port;
}

/**
 * Listens on the preferred port. When it is taken, a login server left running by an earlier
 * attempt is asked to stop (`/cancel`) and the port retried for a moment; then the fallback port
 * (1457 for the default port, any free port otherwise) is used.
 */
async function listen(server: Server, preferred: number): Promise<number> {
  for (let attempt = 0; attempt < 6; attempt++) {
    const bound = await tryListen(server, preferred);
    if (bound !== null) return bound;
    if (preferred === 0) break;
    if (attempt === 0) await cancelOldServer(preferred);
    await sleep(200);
  }
  const fallback = preferred === DEFAULT_LOGIN_PORT ? FALLBACK_LOGIN_PORT : 0;
  const bound = await tryListen(server, fallback);
  if (bound === null) throw new Error(`ports ${preferred} and ${fallback} on 127.0.0.1 are both in use; stop what holds them and try again`);
  return bound;
}

function tryListen(server: Server, port: number): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException): void => {
      server.off("listening", onListening);
      if (err.code === "EADDRINUSE") resolve(null);
      else reject(err);
    };
    const onListening = (): void => {
      server.off("error", onError);
      const address = server.address();
      resolve(typeof address === "object" && address ? address.port : port);
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, "127.0.0.1");
  });
}

async function cancelOldServer(port: number): Promise<void> {
  const { request } = await import("node:http");
  await new Promise<void>((resolve) => {
    const req = request({ host: "127.0.0.1", port, path: "/cancel", method: "GET", timeout: 2000 }, (res) => {
      res.resume();
      res.on("end", resolve);
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve());
    req.end();
  });
}

/** $BROWSER (the first of its `:`-separated commands), else the platform's opener; failures are ignored. */
function openInBrowser(url: string, env: NodeJS.ProcessEnv): void {
  const configured = env.BROWSER?.split(":")[0]?.trim();
  const [command, ...args] = configured
    ? configured.split(/\s+/)
    : process.platform === "darwin"
      ? ["open"]
      : process.platform === "win32"
        ? ["cmd", "/c", "start", '""']
        : ["xdg-open"];
  if (!command) return;
  const withUrl = args.some((a) => a.includes("%s")) ? args.map((a) => a.replace("%s", url)) : [...args, url];
  void import("node:child_process").then(({ spawn }) => {
    try {
      const child = spawn(command, withUrl, { detached: true, stdio: "ignore", env });
      child.on("error", () => {}); // No browser here: the printed URL is the way.
      child.unref();
    } catch {
      // Same: nothing to open it with.
    }
  });
}

function send(res: ServerResponse, status: number, body: string, type = "text/plain; charset=utf-8"): void {
  res.writeHead(status, { "content-type": type, "content-length": String(Buffer.byteLength(body)), connection: "close" });
  res.end(body);
}
