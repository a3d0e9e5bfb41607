/**
 * Reading the claims of the JWTs a ChatGPT sign-in returns. Nothing here verifies a signature:
 * the tokens come from our own auth.json or straight from the issuer over TLS, and are only read
 * for display (email, plan), routing (account id) and timing (expiry).
 */

/** The claims codex-ts uses from an id token. */
export interface IdTokenClaims {
  email: string | null;
  /** The ChatGPT plan, as the issuer spells it ("plus", "pro", "team", …). */
  planType: string | null;
  /** The workspace the login belongs to, sent as `chatgpt-account-id`. */
  accountId: string | null;
  userId: string | null;
}

/** The namespaced claim objects OpenAI's issuer puts in its tokens. */
const AUTH_CLAIM = "https://api.openai.com/auth";
const PROFILE_CLAIM = "https://api.openai.com/profile";

/** The decoded payload of a `header.payload.signature` token, or null when it is not one. */
export function jwtPayload(jwt: string): Record<string, unknown> | null {
  const parts = jwt.split(".");
  if (parts.length < 3 || parts.some((p, i) => i < 3 && p === "")) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(parts[1] ?? "", "base64url").toString("utf8"));
    return isObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

export function idTokenClaims(jwt: string): IdTokenClaims {
  const payload = jwtPayload(jwt) ?? {};
  const auth = isObject(payload[AUTH_CLAIM]) ? payload[AUTH_CLAIM] : {};
  const profile = isObject(payload[PROFILE_CLAIM]) ? payload[PROFILE_CLAIM] : {};
  return {
    email: str(payload.email) ?? str(profile.email),
    planType: str(auth.chatgpt_plan_type),
    accountId: str(auth.chatgpt_account_id),
    userId: str(auth.chatgpt_user_id) ?? str(auth.user_id),
  };
}

/** When the token expires (epoch milliseconds), or null when it carries no `exp`. */
export function jwtExpiresAt(jwt: string): number | null {
  const exp = jwtPayload(jwt)?.exp;
  return typeof exp === "number" && Number.isFinite(exp) ? exp * 1000 : null;
}

/** "plus" → "Plus", as a plan reads in a sentence. */
export function planLabel(plan: string): string {
  return plan.charAt(0).toUpperCase() + plan.slice(1);
}

function str(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
