/**
 * The few small HTTP requests sign-in and refresh make (token endpoint, device-code endpoints),
 * over Node's own http/https so CODEX_CA_CERTIFICATE applies and start-up stays lean. Answers
 * are read whole: they are small JSON documents.
 */
import type { IncomingMessage, RequestOptions } from "node:http";
import { httpsAgentFor } from "../util/ca-certificate.js";

export interface AuthHttpResponse {
  status: number;
  text: string;
  /** The answer's ETag header, when it has one. */
  etag: string | null;
}

export interface RequestExtras {
  /** Headers besides the content type (e.g. originator and User-Agent, as the reference sends). */
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** Let the process exit while this request is still out (a background refresh). */
  unref?: boolean;
}

/** How long one request may take before it is abandoned. */
const REQUEST_TIMEOUT_MS = 30_000;

export async function postJson(url: string, body: unknown, env: NodeJS.ProcessEnv, extras: RequestExtras = {}): Promise<AuthHttpResponse> {
  return send("POST", url, JSON.stringify(body), { ...extras, headers: { ...extras.headers, "content-type": "application/json" } }, env);
}

/** A GET answered with JSON (the Codex backend's model list). */
export async function getJson(url: string, env: NodeJS.ProcessEnv, extras: RequestExtras = {}): Promise<AuthHttpResponse> {
  return send("GET", url, null, extras, env);
}

export async function postForm(url: string, fields: Record<string, string>, env: NodeJS.ProcessEnv): Promise<AuthHttpResponse> {
  // Spaces as %20, as the reference encodes its form bodies.
  const body = Object.entries(fields)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join("&");
  return send("POST", url, body, { headers: { "content-type": "application/x-www-form-urlencoded" } }, env);
}

async function send(method: "GET" | "POST", url: string, body: string | null, extras: RequestExtras, env: NodeJS.ProcessEnv): Promise<AuthHttpResponse> {
  const target = new URL(url);
  const secure = target.protocol === "https:";
  const transport = secure ? await import("node:https") : await import("node:http");
  const timeoutMs = extras.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const options: RequestOptions = {
    method,
    headers: { accept: "application/json", ...extras.headers, ...(body === null ? {} : { "content-length": String(Buffer.byteLength(body)) }) },
    timeout: timeoutMs,
  };
  const agent = secure ? await httpsAgentFor(env) : undefined;
  if (agent) options.agent = agent;
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = transport.request(target, options, resolve);
    req.on("timeout", () => req.destroy(new Error(`no answer from ${target.origin} within ${timeoutMs / 1000} s`)));
    req.on("error", reject);
    if (extras.unref) req.on("socket", (socket) => socket.unref());
    req.end(body ?? undefined);
  });
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  const etag = res.headers.etag;
  return { status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8"), etag: typeof etag === "string" ? etag : null };
}

/** The issuer's error text from a JSON error body (`error_description`, `error.message`, `error`). */
export function errorDetail(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: unknown; error_description?: unknown };
    if (typeof parsed.error_description === "string" && parsed.error_description.trim()) return parsed.error_description;
    const error = parsed.error;
    if (typeof error === "object" && error !== null && typeof (error as { message?: unknown }).message === "string") {
      return (error as { message: string }).message;
    }
    if (typeof error === "string" && error.trim()) return error;
  } catch {
    // Not JSON: the body itself, shortened.
  }
  const trimmed = text.trim();
  return trimmed ? trimmed.slice(0, 300) : "unknown error";
}
