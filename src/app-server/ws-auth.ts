/**
 * Who may open a WebSocket to the app-server, with the reference's `--ws-auth` modes: a
 * capability token (its file, or only its SHA-256) or a JWT signed with a shared secret (HS256,
 * with issuer, audience and expiry checked). Either way the client sends
 * `Authorization: Bearer <token>`; comparisons take constant time. Without a mode only a
 * loopback address may be listened on.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import { isAbsolute } from "node:path";
import { errorMessage } from "../util/errors.js";

export type WsAuth =
  | { kind: "none" }
  | { kind: "capability-token"; sha256: Buffer }
  | { kind: "signed-bearer-token"; secret: Buffer; issuer: string | null; audience: string | null; skewSeconds: number };

export interface WsAuthOptions {
  wsAuth?: string;
  wsTokenFile?: string;
  wsTokenSha256?: string;
  wsSharedSecretFile?: string;
  wsIssuer?: string;
  wsAudience?: string;
  wsMaxClockSkewSeconds?: string;
}

/** A problem with the auth flags, worded for the command line. */
export class WsAuthError extends Error {}

const DEFAULT_SKEW_SECONDS = 30;

function readSecretFile(flag: string, path: string): Buffer {
  if (!isAbsolute(path)) throw new WsAuthError(`${flag} needs an absolute path, not ${path}`);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new WsAuthError(`${flag} ${path}: ${errorMessage(err)}`);
  }
  const secret = text.trim();
  if (secret === "") throw new WsAuthError(`${flag} ${path} is empty`);
  return Buffer.from(secret, "utf8");
}

export function wsAuthFromOptions(opts: WsAuthOptions): WsAuth {
  switch (opts.wsAuth) {
    case undefined:
      if (opts.wsTokenFile ?? opts.wsTokenSha256 ?? opts.wsSharedSecretFile) throw new WsAuthError("--ws-token-file, --ws-token-sha256 and --ws-shared-secret-file go with --ws-auth");
      return { kind: "none" };
    case "capability-token": {
      if ((opts.wsTokenFile === undefined) === (opts.wsTokenSha256 === undefined)) throw new WsAuthError("--ws-auth capability-token needs one of --ws-token-file or --ws-token-sha256");
      if (opts.wsTokenSha256 !== undefined) {
        if (!/^[0-9a-fA-F]{64}$/.test(opts.wsTokenSha256)) throw new WsAuthError("--ws-token-sha256 must be 64 hexadecimal digits");
        return { kind: "capability-token", sha256: Buffer.from(opts.wsTokenSha256, "hex") };
      }
      return { kind: "capability-token", sha256: createHash("sha256").update(readSecretFile("--ws-token-file", opts.wsTokenFile ?? "")).digest() };
    }
    case "signed-bearer-token": {
      if (opts.wsSharedSecretFile === undefined) throw new WsAuthError("--ws-auth signed-bearer-token needs --ws-shared-secret-file");
      const skew = opts.wsMaxClockSkewSeconds === undefined ? DEFAULT_SKEW_SECONDS : Number(opts.wsMaxClockSkewSeconds);
      if (!Number.isInteger(skew) || skew < 0) throw new WsAuthError("--ws-max-clock-skew-seconds must be a whole number of seconds");
      return { kind: "signed-bearer-token", secret: readSecretFile("--ws-shared-secret-file", opts.wsSharedSecretFile), issuer: opts.wsIssuer ?? null, audience: opts.wsAudience ?? null, skewSeconds: skew };
    }
    default:
      throw new WsAuthError(`--ws-auth ${opts.wsAuth}: expected capability-token or signed-bearer-token`);
  }
}

/** Why the `Authorization` header does not let the client in; null when it does. */
export function refusal(auth: WsAuth, header: string | undefined, nowSeconds = Date.now() / 1000): string | null {
  if (auth.kind === "none") return null;
  const token = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "")?.[1];
  if (!token) return "missing bearer token";
  if (auth.kind === "capability-token") {
    return timingSafeEqual(createHash("sha256").update(token, "utf8").digest(), auth.sha256) ? null : "invalid bearer token";
  }
  return jwtRefusal(auth, token, nowSeconds);
}

type Json = Record<string, unknown>;

function decodePart(part: string): Json | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : null;
  } catch {
    return null;
  }
}

function jwtRefusal(auth: Extract<WsAuth, { kind: "signed-bearer-token" }>, token: string, now: number): string | null {
  const [head = "", body = "", signature = "", ...rest] = token.split(".");
  if (rest.length > 0 || signature === "") return "the bearer token is not a JWT";
  const header = decodePart(head);
  const claims = decodePart(body);
  if (!header || !claims) return "the bearer token is not a JWT";
  if (header.alg !== "HS256") return "the bearer token must be signed with HS256";
  const expected = createHmac("sha256", auth.secret).update(`${head}.${body}`).digest();
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return "invalid bearer token signature";
  if (typeof claims.exp !== "number" || claims.exp + auth.skewSeconds < now) return "the bearer token has expired";
  if (typeof claims.nbf === "number" && claims.nbf - auth.skewSeconds > now) return "the bearer token is not valid yet";
  if (auth.issuer !== null && claims.iss !== auth.issuer) return "the bearer token's issuer is not the expected one";
  if (auth.audience !== null) {
    const aud = claims.aud;
    const audiences = Array.isArray(aud) ? aud : [aud];
    if (!audiences.includes(auth.audience)) return "the bearer token's audience is not the expected one";
  }
  return null;
}
