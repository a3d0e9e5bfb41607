/**
 * Account methods: who is signed in (auth.json), signing in with an API key, with ChatGPT in a
 * browser or with a device code (the sign-in's end comes as `account/login/completed`, then
 * `account/updated`), cancelling a sign-in, and signing out (tokens revoked, best effort).
 */
import { randomUUID } from "node:crypto";
import { invalidRequest } from "../../app-server-protocol/jsonrpc.js";
import { deleteAuthFile, readAuthFile, writeApiKeyAuth, type SavedAuth } from "../../auth/auth-file.js";
import { idTokenClaims } from "../../auth/jwt.js";
import { loginPolicyFrom } from "../../auth/resolve-auth.js";
import type { Params } from "../params.js";
import type { AppServer, Method, MethodContext } from "../server.js";
import { errorMessage } from "../../util/errors.js";

/** Browser sign-ins in progress (their cancel), by login id, per server. */
const pendingLogins = new WeakMap<AppServer, Map<string, () => void>>();

function logins(server: AppServer): Map<string, () => void> {
  let map = pendingLogins.get(server);
  if (!map) pendingLogins.set(server, (map = new Map()));
  return map;
}

function savedAuth(server: AppServer): SavedAuth | null {
  try {
    return readAuthFile(server.codexHome);
  } catch {
    return null;
  }
}

function account(saved: SavedAuth | null): object | null {
  if (saved?.kind === "api-key") return { type: "apiKey" };
  if (saved?.kind === "chatgpt") {
    const claims = idTokenClaims(saved.tokens.id_token);
    return { type: "chatgpt", email: claims.email, planType: claims.planType ?? "unknown", workspaceName: null };
  }
  return null;
}

function authMode(saved: SavedAuth | null): string | null {
  return saved?.kind === "api-key" ? "apikey" : saved?.kind === "chatgpt" ? "chatgpt" : null;
}

/** Tells every client how the sign-in ended and who is signed in now. */
function loginFinished(server: AppServer, loginId: string | null, error: string | null): void {
  logins(server).delete(loginId ?? "");
  server.broadcast("account/login/completed", { loginId, success: error === null, error, onboardingEntrypoint: null });
  const saved = savedAuth(server);
  server.broadcast("account/updated", { authMode: authMode(saved), planType: saved?.kind === "chatgpt" ? (idTokenClaims(saved.tokens.id_token).planType ?? "unknown") : null });
}

const read: Method = async ({ server }) => {
  const saved = savedAuth(server);
  const config = server.loadConfig({});
  const userId = saved?.kind === "chatgpt" ? idTokenClaims(saved.tokens.id_token).userId : null;
  return { account: account(saved), userId, requiresOpenaiAuth: config.provider.id === "openai" };
};

const loginStart: Method = async ({ server }, params) => {
  const type = params.string("type");
  const env = server.options.env;
  const policy = loginPolicyFrom(server.loadConfig({}).toml);
  switch (type) {
    case "apiKey": {
      if (policy.forcedLoginMethod === "chatgpt") throw invalidRequest("this config only allows signing in with ChatGPT (forced_login_method)");
      const apiKey = params.string("apiKey").trim();
      if (apiKey === "") throw invalidRequest("Invalid request: `apiKey` must not be empty");
      writeApiKeyAuth(server.codexHome, apiKey);
      setImmediate(() => loginFinished(server, null, null));
      return { type: "apiKey" };
    }
    case "chatgpt": {
      if (policy.forcedLoginMethod === "api") throw invalidRequest("this config only allows signing in with an API key (forced_login_method)");
      const { startChatGptLogin } = await import("../../auth/browser-login.js");
      const handle = await startChatGptLogin({ codexHome: server.codexHome, env, openBrowser: false, allowedWorkspaceIds: policy.forcedWorkspaceIds ?? null });
      const loginId = randomUUID();
      logins(server).set(loginId, () => handle.cancel());
      handle.done.then(
        () => loginFinished(server, loginId, null),
        (err: unknown) => loginFinished(server, loginId, errorMessage(err)),
      );
      return { type: "chatgpt", loginId, authUrl: handle.url };
    }
    case "chatgptDeviceCode": {
      if (policy.forcedLoginMethod === "api") throw invalidRequest("this config only allows signing in with an API key (forced_login_method)");
      const { requestDeviceCode, completeDeviceLogin } = await import("../../auth/device-login.js");
      const device = await requestDeviceCode(env);
      // The device flow polls until the user enters the code or it times out; it cannot be cancelled.
      const loginId = randomUUID();
      completeDeviceLogin(server.codexHome, env, device, policy.forcedWorkspaceIds ?? null).then(
        () => loginFinished(server, loginId, null),
        (err: unknown) => loginFinished(server, loginId, errorMessage(err)),
      );
      return { type: "chatgptDeviceCode", loginId, verificationUrl: device.verificationUrl, userCode: device.userCode };
    }
    default:
      throw invalidRequest(`sign-in type ${JSON.stringify(type)} is not supported by codex-ts app-server (apiKey, chatgpt or chatgptDeviceCode)`);
  }
};

const loginCancel: Method = async ({ server }, params) => {
  const loginId = params.string("loginId");
  const cancel = logins(server).get(loginId);
  if (!cancel) return { status: "notFound" };
  cancel();
  return { status: "canceled" };
};

const logout: Method = async ({ server }) => {
  const saved = savedAuth(server);
  if (saved?.kind === "chatgpt") {
    const { revokeLogin } = await import("../../auth/revoke.js");
    const problem = await revokeLogin(saved, server.options.env);
    if (problem) server.options.log(`the tokens could not be revoked (${problem}); the local login is removed anyway`);
  }
  deleteAuthFile(server.codexHome);
  server.broadcast("account/updated", { authMode: null, planType: null });
  return {};
};

export const accountMethods: Record<string, (ctx: MethodContext, params: Params) => Promise<unknown>> = {
  "account/read": read,
  "account/login/start": loginStart,
  "account/login/cancel": loginCancel,
  "account/logout": logout,
};
