/**
 * The local end of the authorization redirect: an HTTP server on 127.0.0.1 (the port
 * redirect.ts chooses) that waits for `?code=…&state=…` on the redirect URI's path, checks
 * the state against the one sent, shows the user a short page saying what happened, and stops.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { CallbackAddress } from "./redirect.js";

export const DEFAULT_CALLBACK_TIMEOUT_MS = 300_000;

export class OAuthCallbackError extends Error {}

export interface CallbackServer {
  redirectUrl: string;
  /**
   * The redirect as the user pasted it (the browser's address bar, when the redirect could not
   * reach this machine: a sign-in over SSH). False when the text is not that redirect.
   */
  deliverPasted: (text: string) => boolean;
  /** The code for the authorization whose `state` was `expectedState`. */
  waitForCode: (expectedState: string | undefined) => Promise<string>;
  close: () => Promise<void>;
}

function page(title: string, body: string): string {
  const escape = (text: string): string => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escape(title)}</title></head><body style="font-family: sans-serif; margin: 3em"><h1>${escape(title)}</h1><p>${escape(body)}</p></body></html>`;
}

function reply(res: ServerResponse, status: number, title: string, body: string): void {
  res.writeHead(status, { "Content-Type": "text/html; charset=utf-8", Connection: "close" });
  res.end(page(title, body));
}

/** The code and state a redirect carries, or the error it reports; null when it carries neither. */
function redirectResult(url: URL): { code?: string; state?: string; error?: string } | null {
  const code = url.searchParams.get("code") ?? undefined;
  const state = url.searchParams.get("state") ?? undefined;
  const error = url.searchParams.get("error") ?? undefined;
  if (error !== undefined) {
    const description = url.searchParams.get("error_description");
    return { error: `The authorization server answered ${error}${description ? `: ${description}` : ""}` };
  }
  if (code === undefined) return null;
  return { code, ...(state !== undefined ? { state } : {}) };
}

export async function startCallbackServer(address: CallbackAddress, timeoutMs = DEFAULT_CALLBACK_TIMEOUT_MS): Promise<CallbackServer> {
  const port = address.listenPort;
  let callbackPath = "";
  let deliver: ((result: { code?: string; state?: string; error?: string }) => void) | undefined;
  const arrived = new Promise<{ code?: string; state?: string; error?: string }>((resolve) => (deliver = resolve));
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== callbackPath) {
      reply(res, 404, "Not found", "This address only receives the sign-in redirect for codex-ts.");
      return;
    }
    const result = redirectResult(url);
    if (result === null) {
      reply(res, 400, "Sign-in failed", "The redirect carried neither an authorization code nor an error.");
      return;
    }
    if (result.error !== undefined) reply(res, 400, "Sign-in failed", `${result.error}. You can close this window and try again.`);
    else reply(res, 200, "Signed in", "codex-ts received the authorization. You can close this window and return to the terminal.");
    deliver?.(result);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) =>
      reject(new OAuthCallbackError(`cannot listen for the OAuth callback on 127.0.0.1:${port ?? 0}: ${err.code === "EADDRINUSE" ? "the port is in use (mcp_oauth_callback_port)" : err.message}`)),
    );
    server.listen(port ?? 0, "127.0.0.1", resolve);
  });
  const redirectUrl = address.redirectUrl((server.address() as AddressInfo).port);
  callbackPath = new URL(redirectUrl).pathname;
  const close = (): Promise<void> =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return {
    redirectUrl,
    close,
    deliverPasted: (text) => {
      let url: URL;
      try {
        url = new URL(text.trim());
      } catch {
        return false;
      }
      const result = url.pathname === callbackPath ? redirectResult(url) : null;
      if (result === null) return false;
      deliver?.(result);
      return true;
    },
    waitForCode: async (expectedState) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new OAuthCallbackError(`timed out waiting for the OAuth callback after ${Math.round(timeoutMs / 1000)}s`)), timeoutMs);
      });
      try {
        const result = await Promise.race([arrived, timeout]);
        if (result.error !== undefined) throw new OAuthCallbackError(result.error);
        if (expectedState !== undefined && result.state !== expectedState) throw new OAuthCallbackError("the OAuth callback's state does not match the request; sign-in abandoned");
        if (result.code === undefined) throw new OAuthCallbackError("the OAuth callback carried no code");
        return result.code;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
