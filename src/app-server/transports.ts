/**
 * How clients reach the app-server: stdio (one client, one JSON message per line) or a
 * WebSocket listener (many clients, one message per text frame, `/readyz` and `/healthz` for
 * probes). A message may be up to MAX_MESSAGE_BYTES; a longer line or frame is refused with an
 * error and the connection goes on. Requests from a browser (with an `Origin` header) are refused,
 * as the reference refuses them, so a web page cannot drive a local server.
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { AddressInfo } from "node:net";
import { ERROR_CODES } from "../app-server-protocol/jsonrpc.js";
import type { Connection, Transport } from "./connection.js";
import { refusal, type WsAuth } from "./ws-auth.js";

export const MAX_MESSAGE_BYTES = 16 << 20;

type Connect = (transport: Transport) => Connection;

/** Serves one client on stdin/stdout; resolves when stdin ends. */
export function serveStdio(connect: Connect, input: NodeJS.ReadableStream = process.stdin, output: NodeJS.WritableStream = process.stdout): Promise<void> {
  const connection = connect({
    send: (text) => void output.write(`${text}\n`),
    close: () => undefined,
  });
  const tooLong = JSON.stringify({ id: null, error: { code: ERROR_CODES.invalidRequest, message: `Invalid request: a message over ${MAX_MESSAGE_BYTES} bytes was dropped` } });
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let skipping = false;
  return new Promise((resolve) => {
    input.on("data", (chunk: Buffer | string) => {
      let data = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      for (let nl = data.indexOf(10); nl >= 0; nl = data.indexOf(10)) {
        const line = Buffer.concat([...pending, data.subarray(0, nl)]);
        data = data.subarray(nl + 1);
        pending = [];
        pendingBytes = 0;
        if (skipping) skipping = false;
        else if (line.toString("utf8").trim() !== "") connection.receive(line.toString("utf8"));
      }
      if (skipping || data.length === 0) return;
      pending.push(data);
      pendingBytes += data.length;
      if (pendingBytes > MAX_MESSAGE_BYTES) {
        pending = [];
        pendingBytes = 0;
        skipping = true;
        output.write(`${tooLong}\n`);
      }
    });
    input.on("end", () => {
      connection.close();
      resolve();
    });
  });
}

export interface WebSocketListener {
  /** The address actually bound (the port is chosen by the system when 0 was asked for). */
  url: string;
  close(): Promise<void>;
}

/** Listens for WebSocket clients at `host:port`; the `ws` package loads only here. */
export async function listenWebSocket(host: string, port: number, auth: WsAuth, connect: Connect, log: (line: string) => void): Promise<WebSocketListener> {
  const [{ createServer }, { WebSocketServer }] = await Promise.all([import("node:http"), import("ws")]);
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const server = createServer((req, res) => {
    if (req.headers.origin !== undefined) {
      res.writeHead(403).end();
      return;
    }
    if (req.url === "/readyz" || req.url === "/healthz") {
      res.writeHead(200, { "content-length": "0" }).end();
      return;
    }
    res.writeHead(400, { "content-type": "text/plain; charset=utf-8" }).end("Connection header did not include 'upgrade'");
  });
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const refuse = (status: number, text: string): void => {
      socket.end(`HTTP/1.1 ${status} ${status === 401 ? "Unauthorized" : "Forbidden"}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`);
    };
    if (req.headers.origin !== undefined) return refuse(403, "browser requests are not accepted");
    const why = refusal(auth, req.headers.authorization);
    if (why !== null) return refuse(401, why);
    wss.handleUpgrade(req, socket, head, (ws) => {
      const connection = connect({ send: (text) => ws.send(text), close: () => ws.close() });
      ws.on("message", (data, isBinary) => {
        if (isBinary) {
          ws.send(JSON.stringify({ id: null, error: { code: ERROR_CODES.invalidRequest, message: "Invalid request: messages are JSON text frames, not binary ones" } }));
          return;
        }
        connection.receive(Buffer.isBuffer(data) ? data.toString("utf8") : Array.isArray(data) ? Buffer.concat(data).toString("utf8") : Buffer.from(data).toString("utf8"));
      });
      ws.on("close", () => connection.close());
      ws.on("error", (err) => log(`websocket error: ${err.message}`));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `ws://${shownHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}
