/**
 * An OAuth-protected MCP server for tests, on 127.0.0.1, in the test's own process: the MCP
 * endpoint (`/mcp`, the fixture server's tools behind bearer tokens), its protected-resource
 * metadata, and an authorization server on the same origin with dynamic registration, an
 * authorize endpoint that approves at once (redirecting to the client with a code), and a token
 * endpoint for codes (PKCE S256 checked) and refresh tokens.
 *
 * Tests steer it: how long access tokens live, revoking access or refresh tokens, which tools
 * need which extra scope (a call without it gets 403 `insufficient_scope`). Everything it saw is
 * recorded: token requests (grant type, scope, resource) and the tokens it issued.
 */
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createFixtureServer } from "../fixtures/mcp/fixture-server.js";
import { readRequestText as readText, sendJson as json } from "./http-util.js";

export const BASE_SCOPE = "mcp:read";

interface Grant {
  clientId: string;
  scopes: string[];
}

export interface TokenRequest {
  grant_type: string;
  scope?: string;
  resource?: string;
  client_id?: string;
}

export interface OAuthFixture {
  /** The MCP endpoint. */
  url: string;
  /** Seconds an access token lives (default 3600). */
  accessTokenLifetimeSec: number;
  /** Tool name → the extra scope a call needs. */
  scopedTools: Record<string, string>;
  tokenRequests: TokenRequest[];
  authorizeRequests: URLSearchParams[];
  registrations: number;
  /** Every access and refresh token handed out. */
  issued: string[];
  /** Accepts a client registered "in advance" (a configured `client_id`). */
  allowClient(clientId: string): void;
  revokeAccessTokens(): void;
  revokeRefreshTokens(): void;
  close(): Promise<void>;
}


export async function startOAuthFixture(): Promise<OAuthFixture> {
  const access = new Map<string, Grant & { expiresAt: number }>();
  const refresh = new Map<string, Grant>();
  const codes = new Map<string, Grant & { challenge: string; redirectUri: string }>();
  const clients = new Set<string>();
  let base = "";

  const token = (): string => randomBytes(18).toString("base64url");
  const issue = (grant: Grant): Record<string, unknown> => {
    const accessToken = `at-${token()}`;
    const refreshToken = `rt-${token()}`;
    access.set(accessToken, { ...grant, expiresAt: Date.now() + fixture.accessTokenLifetimeSec * 1000 });
    refresh.set(refreshToken, grant);
    fixture.issued.push(accessToken, refreshToken);
    return { access_token: accessToken, token_type: "Bearer", expires_in: fixture.accessTokenLifetimeSec, refresh_token: refreshToken, scope: grant.scopes.join(" ") };
  };

  const challenge = (extra = ""): Record<string, string> => ({
    "www-authenticate": `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp", scope="${BASE_SCOPE}"${extra}`,
  });

  const handleMcp = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const auth = req.headers.authorization ?? "";
    const grant = access.get(auth.replace(/^Bearer /, ""));
    if (!grant || grant.expiresAt < Date.now()) {
      json(res, 401, { error: "invalid_token" }, challenge(', error="invalid_token"'));
      return;
    }
    if (req.method !== "POST") {
      res.writeHead(405).end();
      return;
    }
    const body = JSON.parse(await readText(req)) as { method?: string; params?: { name?: string } };
    const needed = body.method === "tools/call" ? fixture.scopedTools[body.params?.name ?? ""] : undefined;
    if (needed !== undefined && !grant.scopes.includes(needed)) {
      const scope = [...new Set([...grant.scopes, needed])].join(" ");
      json(res, 403, { error: "insufficient_scope" }, {
        "www-authenticate": `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
      });
      return;
    }
    const mcp = createFixtureServer({ name: "oauth-fixture", whoami: () => grant.clientId });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const handleToken = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const form = new URLSearchParams(await readText(req));
    const basic = req.headers.authorization?.startsWith("Basic ") ? Buffer.from(req.headers.authorization.slice(6), "base64").toString() : "";
    const clientId = form.get("client_id") ?? decodeURIComponent(basic.split(":")[0] ?? "");
    fixture.tokenRequests.push({
      grant_type: form.get("grant_type") ?? "",
      ...(form.get("scope") ? { scope: form.get("scope") as string } : {}),
      ...(form.get("resource") ? { resource: form.get("resource") as string } : {}),
      ...(clientId ? { client_id: clientId } : {}),
    });
    if (!clients.has(clientId)) return json(res, 401, { error: "invalid_client" });
    if (form.get("grant_type") === "authorization_code") {
      const code = codes.get(form.get("code") ?? "");
      codes.delete(form.get("code") ?? "");
      const verifier = form.get("code_verifier") ?? "";
      const computed = createHash("sha256").update(verifier).digest("base64url");
      if (!code || code.challenge !== computed || code.redirectUri !== form.get("redirect_uri")) return json(res, 400, { error: "invalid_grant" });
      return json(res, 200, issue(code));
    }
    if (form.get("grant_type") === "refresh_token") {
      const grant = refresh.get(form.get("refresh_token") ?? "");
      if (!grant) return json(res, 400, { error: "invalid_grant", error_description: "refresh token revoked" });
      const issued = issue(grant);
      delete issued.refresh_token; // the old refresh token stays good
      return json(res, 200, issued);
    }
    json(res, 400, { error: "unsupported_grant_type" });
  };

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", base);
      if (url.pathname === "/mcp") return handleMcp(req, res);
      if (url.pathname === "/.well-known/oauth-protected-resource/mcp") {
        return json(res, 200, { resource: `${base}/mcp`, authorization_servers: [base], scopes_supported: [BASE_SCOPE, "mcp:write"] });
      }
      if (url.pathname === "/.well-known/oauth-authorization-server") {
        return json(res, 200, {
          issuer: base,
          authorization_endpoint: `${base}/authorize`,
          token_endpoint: `${base}/token`,
          registration_endpoint: `${base}/register`,
          response_types_supported: ["code"],
          grant_types_supported: ["authorization_code", "refresh_token"],
          code_challenge_methods_supported: ["S256"],
          token_endpoint_auth_methods_supported: ["none"],
        });
      }
      if (url.pathname === "/register" && req.method === "POST") {
        const metadata = JSON.parse(await readText(req)) as Record<string, unknown>;
        const clientId = `client-${token()}`;
        clients.add(clientId);
        fixture.registrations++;
        return json(res, 201, { ...metadata, client_id: clientId, token_endpoint_auth_method: "none" });
      }
      if (url.pathname === "/authorize") {
        fixture.authorizeRequests.push(url.searchParams);
        const redirect = new URL(url.searchParams.get("redirect_uri") ?? "");
        const code = `code-${token()}`;
        codes.set(code, {
          clientId: url.searchParams.get("client_id") ?? "",
          scopes: (url.searchParams.get("scope") ?? BASE_SCOPE).split(" "),
          challenge: url.searchParams.get("code_challenge") ?? "",
          redirectUri: redirect.href,
        });
        redirect.searchParams.set("code", code);
        const state = url.searchParams.get("state");
        if (state !== null) redirect.searchParams.set("state", state);
        res.writeHead(302, { location: redirect.href }).end();
        return;
      }
      if (url.pathname === "/token" && req.method === "POST") return handleToken(req, res);
      res.writeHead(404).end();
    })().catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const fixture: OAuthFixture = {
    url: `${base}/mcp`,
    accessTokenLifetimeSec: 3600,
    scopedTools: {},
    tokenRequests: [],
    authorizeRequests: [],
    registrations: 0,
    issued: [],
    allowClient: (clientId) => void clients.add(clientId),
    revokeAccessTokens: () => access.clear(),
    revokeRefreshTokens: () => refresh.clear(),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fixture;
}
