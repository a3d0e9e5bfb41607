/**
 * Runs the scripted model server as its own process, for benchmarks and manual runs.
 *
 *   node dist/test/support/model-server-cli.js turns.json
 *
 * `turns.json` holds a JSON array of ScriptedTurn. The provider base URL is printed as a single
 * line on stdout; the server then runs until it gets SIGINT/SIGTERM, at which point it reports
 * the number of requests and any violations on stderr and exits (status 1 if there were any).
 */
import { readFileSync } from "node:fs";
import { startModelServer } from "./model-server.js";
import type { ScriptedTurn } from "./model-server.js";

async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write("usage: model-server-cli <turns.json>\n");
    process.exit(2);
  }
  const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
  if (!Array.isArray(parsed)) throw new Error(`${file}: expected a JSON array of scripted turns`);
  const server = await startModelServer(parsed as ScriptedTurn[]);
  process.stdout.write(`${server.url}\n`);

  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    server
      .close()
      .then(() => {
        process.stderr.write(`model-server: ${server.requests.length} model requests\n`);
        for (const v of server.violations) process.stderr.write(`model-server violation: ${v}\n`);
        process.exit(server.violations.length > 0 ? 1 : 0);
      })
      .catch((err: unknown) => {
        process.stderr.write(`model-server: close failed: ${String(err)}\n`);
        process.exit(1);
      });
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`model-server: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
