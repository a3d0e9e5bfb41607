/**
 * Signing in on a machine without a browser, with the reference's device-code endpoints: ask
 * `<issuer>/api/accounts/deviceauth/usercode` for a code the user types at
 * `<issuer>/codex/device`, poll `…/deviceauth/token` (403/404 mean "not yet") at the interval the
 * issuer gives, for at most 15 minutes, then exchange the authorization code it returns (with
 * the PKCE verifier it also returns) like the browser flow does.
 */
import type { ChatgptLogin } from "./auth-file.js";
import { errorDetail, postJson } from "./auth-http.js";
import { CLIENT_ID, issuerUrl } from "./endpoints.js";
import { checkIssuedWorkspace, exchangeCode, saveChatgptLogin } from "./sign-in.js";
import { sleep } from "../util/sleep.js";
import { errorMessage } from "../util/errors.js";

export const DEVICE_CODE_MAX_WAIT_MS = 15 * 60_000;

export interface DeviceCode {
  /** Where the user enters the code. */
  verificationUrl: string;
  userCode: string;
  deviceAuthId: string;
  intervalMs: number;
}

export async function requestDeviceCode(env: NodeJS.ProcessEnv): Promise<DeviceCode> {
  const issuer = issuerUrl(env);
  const res = await postJson(`${issuer}/api/accounts/deviceauth/usercode`, { client_id: CLIENT_ID }, env);
  if (res.status === 404) throw new Error("device-code sign-in is not enabled on this server; use `codex-ts login` (browser) instead");
  if (res.status < 200 || res.status >= 300) throw new Error(`requesting a device code failed (HTTP ${res.status}): ${errorDetail(res.text)}`);
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(res.text) as Record<string, unknown>;
  } catch {
    throw new Error("the device-code answer is not JSON");
  }
  const deviceAuthId = parsed.device_auth_id;
  const userCode = parsed.user_code ?? parsed.usercode;
  if (typeof deviceAuthId !== "string" || typeof userCode !== "string") throw new Error("the device-code answer lacks device_auth_id or user_code");
  // The issuer sends the interval as a string of seconds.
  const seconds = Number(typeof parsed.interval === "string" ? parsed.interval.trim() : (parsed.interval ?? 0));
  return {
    verificationUrl: `${issuer}/codex/device`,
    userCode,
    deviceAuthId,
    intervalMs: Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0,
  };
}

/** Polls until the user has entered the code, then saves the login. */
export async function completeDeviceLogin(
  codexHome: string,
  env: NodeJS.ProcessEnv,
  device: DeviceCode,
  allowedWorkspaceIds: string[] | null = null,
  maxWaitMs = DEVICE_CODE_MAX_WAIT_MS,
): Promise<ChatgptLogin> {
  const issuer = issuerUrl(env);
  const started = Date.now();
  for (;;) {
    const res = await postJson(`${issuer}/api/accounts/deviceauth/token`, { device_auth_id: device.deviceAuthId, user_code: device.userCode }, env);
    if (res.status >= 200 && res.status < 300) {
      const answer = JSON.parse(res.text) as Record<string, unknown>;
      const { authorization_code: code, code_verifier: verifier } = answer;
      if (typeof code !== "string" || typeof verifier !== "string") throw new Error("the device-code token answer lacks authorization_code or code_verifier");
      let issued;
      try {
        issued = await exchangeCode(env, code, `${issuer}/deviceauth/callback`, verifier);
      } catch (err) {
        throw new Error(`device code exchange failed: ${errorMessage(err)}`);
      }
      checkIssuedWorkspace(issued, allowedWorkspaceIds);
      return saveChatgptLogin(codexHome, issued);
    }
    if (res.status !== 403 && res.status !== 404) throw new Error(`device sign-in failed (HTTP ${res.status}): ${errorDetail(res.text)}`);
    const elapsed = Date.now() - started;
    if (elapsed >= maxWaitMs) throw new Error(`device sign-in timed out after ${Math.round(maxWaitMs / 60_000)} minutes`);
    // At least a tenth of a second between polls, whatever the issuer says.
    await sleep(Math.min(Math.max(device.intervalMs, 100), maxWaitMs - elapsed));
  }
}
