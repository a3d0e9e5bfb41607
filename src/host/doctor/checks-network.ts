/**
 * Doctor check of the model provider: its models endpoint asked once, with the credentials a
 * session would send, so a wrong base_url, an unreachable host and a refused key each get their
 * own answer.
 */
import type { IncomingMessage } from "node:http";
import type { Config } from "../../config/load-config.js";
import { modelListRequest } from "../../core/model-access.js";
import { httpsAgentFor } from "../../util/ca-certificate.js";
import { fail, ok, warning, type Finding } from "./report.js";
import { errorCode, errorMessage } from "../../util/errors.js";

const TIMEOUT_MS = 8000;

export async function reachabilityCheck(config: Config, env: NodeJS.ProcessEnv): Promise<Finding> {
  const { base, url, headers, chatgpt } = modelListRequest(config, env);
  const details = { url };
  const started = performance.now();
  let status: number;
  try {
    status = await get(url, headers, env);
  } catch (err) {
    const why = errorCode(err) ?? errorMessage(err);
    return fail(`${base} cannot be reached (${why})`, "check base_url (or openai_base_url), the network, proxies (HTTPS_PROXY) and CODEX_CA_CERTIFICATE", details);
  }
  const timed = { ...details, "HTTP status": String(status), "answered in": `${Math.round(performance.now() - started)} ms` };
  if (status === 401 || status === 403) return fail(`${config.provider.name} refused the credentials (HTTP ${status})`, chatgpt ? "run `codex-ts login` again" : "check the API key, and that it belongs to this provider", timed);
  if (status === 404) return warning(`${base} answers, but not at /models (HTTP 404)`, "check that base_url ends with the API's prefix (often /v1); some providers have no /models, and then this is fine", timed);
  if (status >= 500) return warning(`${base} answers with a server error (HTTP ${status})`, "try again later; sessions retry such errors", timed);
  return ok(`${base} answers (HTTP ${status})`, timed);
}

async function get(url: string, headers: Record<string, string>, env: NodeJS.ProcessEnv): Promise<number> {
  const target = new URL(url);
  const secure = target.protocol === "https:";
  const transport = secure ? await import("node:https") : await import("node:http");
  const agent = secure ? await httpsAgentFor(env) : undefined;
  return new Promise((resolve, reject) => {
    const req = transport.request(target, { method: "GET", headers, signal: AbortSignal.timeout(TIMEOUT_MS), ...(agent ? { agent } : {}) }, (res: IncomingMessage) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}
