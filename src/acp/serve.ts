/**
 * Runs the ACP agent on stdin/stdout (newline-delimited JSON-RPC, as editors spawn it) until the
 * editor closes stdin; then every session is shut down. Diagnostics go to stderr.
 */
import { ndJsonStream } from "@agentclientprotocol/sdk";
import { Readable, Writable } from "node:stream";
import { createAcpAgent, type AcpOptions } from "./agent.js";

export type AcpCommandOptions = Omit<AcpOptions, "log" | "env">;

export async function runAcp(options: AcpCommandOptions): Promise<number> {
  const log = (message: string): void => void process.stderr.write(`${message}\n`);
  const agent = createAcpAgent({ ...options, env: process.env, log });
  const stream = ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>);
  const connection = agent.app.connect(stream);
  await connection.closed;
  for (const warning of await agent.shutdown()) log(`warning: ${warning}`);
  return 0;
}
