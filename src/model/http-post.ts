/**
 * A streaming POST on Node's own http/https modules. We avoid the global fetch here on purpose:
 * its parser is compiled from WebAssembly on first use, which costs tens of milliseconds at
 * start-up and delays process exit by about as much again, for every `exec` run.
 */
import type { IncomingHttpHeaders, IncomingMessage, RequestOptions } from "node:http";
import { httpsAgentFor } from "../util/ca-certificate.js";

export interface HttpResponse {
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  /** The response's bytes as they arrive (Node's stream: no web stream is made). */
  body: AsyncIterable<Uint8Array>;
  text(): Promise<string>;
}

export async function httpPost(url: string, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<HttpResponse> {
  const target = new URL(url);
  const secure = target.protocol === "https:";
  const transport = secure ? await import("node:https") : await import("node:http");
  const options: RequestOptions = {
    method: "POST",
    headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
    signal,
  };
  // CODEX_CA_CERTIFICATE: trust the configured bundle as well as the built-in roots.
  const agent = secure ? await httpsAgentFor(process.env) : undefined;
  if (agent) options.agent = agent;
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = transport.request(target, options, resolve);
    req.on("error", reject);
    req.end(body);
  });
  return {
    status: res.statusCode ?? 0,
    statusText: res.statusMessage ?? "",
    headers: res.headers,
    body: res,
    text: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of res) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString("utf8");
    },
  };
}
