/**
 * Revoking a ChatGPT login's tokens at the issuer when the user logs out, as the reference does:
 * the refresh token (with the client id), or the access token when there is no refresh token.
 * Best effort with a short timeout: logging out never fails because the issuer is unreachable.
 */
import type { ChatgptLogin } from "./auth-file.js";
import { errorDetail, postJson } from "./auth-http.js";
import { CLIENT_ID, revokeUrl } from "./endpoints.js";
import { errorMessage } from "../util/errors.js";

const REVOKE_TIMEOUT_MS = 10_000;

/** Null when the issuer accepted the revocation, else why it did not (for a warning). */
export async function revokeLogin(login: ChatgptLogin, env: NodeJS.ProcessEnv): Promise<string | null> {
  const { refresh_token: refresh, access_token: access } = login.tokens;
  const body = refresh ? { token: refresh, token_type_hint: "refresh_token", client_id: CLIENT_ID } : { token: access, token_type_hint: "access_token" };
  try {
    const res = await postJson(revokeUrl(env), body, env, { timeoutMs: REVOKE_TIMEOUT_MS });
    if (res.status >= 200 && res.status < 300) return null;
    return `the issuer answered ${res.status}: ${errorDetail(res.text)}`;
  } catch (err) {
    return errorMessage(err);
  }
}
