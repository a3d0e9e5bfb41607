/**
 * What every scripted HTTP server in test/support does with a request and a JSON answer.
 * Only Node's `http` types are used, so the model server compiled with it still runs from plain
 * Node scripts.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";

/** The request's whole body. */
export async function readRequestBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The request's whole body as UTF-8 text. */
export async function readRequestText(req: IncomingMessage): Promise<string> {
  return (await readRequestBody(req)).toString("utf8");
}

/** Answers with `body` as JSON (a string is sent as it is, already JSON). */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(typeof body === "string" ? body : JSON.stringify(body));
}

/** A port on 127.0.0.1 that was free a moment ago (for a server the test does not start itself). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", resolve);
  });
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
