/**
 * The client the MCP conformance suite runs for scenarios driven through the command line, as a
 * user would: `node cli-driver.js <server-url>` writes the server into a throw-away CODEX_HOME's
 * config.toml, runs `codex-ts mcp login conformance`, then `codex-ts exec` against a scripted
 * model that calls every tool the server offers. The "browser" ($BROWSER) is a small script that
 * asks the authorization URL (the suite's servers approve at once) and follows the redirect to
 * codex-ts's callback, so both the login and a step-up in the middle of exec complete. Exits 0
 * when the login and every tool call worked.
 */
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI_PATH } from "../support/cli.js";
import { startModelServer, type RecordedRequest, type ScriptedTurn } from "../support/model-server.js";

const BROWSER = String.raw`
const response = await fetch(process.argv[2], { redirect: "manual" });
const location = response.headers.get("location");
if (!location) { console.error("no redirect from the authorization endpoint"); process.exit(1); }
const back = await fetch(new URL(location, process.argv[2]));
process.exit(back.ok ? 0 : 1);
`;

/** Runs the CLI without blocking this process, whose event loop serves the scripted model. */
function cli(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<{ status: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 90_000);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, out });
    });
  });
}

/** First request: call every MCP tool offered (arguments made up from the schema); then finish. */
function respond(request: RecordedRequest): ScriptedTurn {
  const input = request.body.input ?? [];
  const tools = (request.body.tools ?? []).filter((t) => typeof t.name === "string" && t.name.startsWith("mcp__conformance__"));
  if (input.some((item) => item.type === "function_call_output")) return { outputs: [{ type: "message", text: "done" }] };
  return {
    outputs: tools.map((tool, i) => ({ type: "function_call" as const, name: String(tool.name), arguments: sampleArguments(tool.parameters), callId: `call_${i}` })),
  };
}

function sampleArguments(schema: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const { properties, required } = (schema ?? {}) as { properties?: Record<string, { type?: unknown }>; required?: unknown };
  for (const name of Array.isArray(required) ? (required as string[]) : []) {
    const type = properties?.[name]?.type;
    out[name] = type === "number" || type === "integer" ? 1 : type === "boolean" ? true : type === "array" ? [] : type === "object" ? {} : "x";
  }
  return out;
}

async function main(): Promise<number> {
  const url = process.argv[2];
  if (!url) return 2;
  const root = mkdtempSync(join(tmpdir(), "codex-ts-conformance-cli-"));
  const home = join(root, "home");
  const work = join(root, "work");
  mkdirSync(home);
  mkdirSync(join(work, ".git"), { recursive: true });
  writeFileSync(join(root, "browser.mjs"), BROWSER);
  writeFileSync(join(root, "browser"), `#!/bin/sh\nexec '${process.execPath}' '${join(root, "browser.mjs")}' "$1"\n`);
  chmodSync(join(root, "browser"), 0o755);
  const model = await startModelServer([], { respond });
  writeFileSync(join(home, "config.toml"), `openai_base_url = "${model.url}"\n\n[mcp_servers.conformance]\nurl = "${url}"\n`);
  const env: NodeJS.ProcessEnv = { ...process.env, CODEX_HOME: home, OPENAI_API_KEY: "sk-conformance", BROWSER: join(root, "browser"), NO_COLOR: "1" };
  try {
    const login = await cli(["mcp", "login", "conformance"], env, work);
    process.stdout.write(login.out);
    if (login.status !== 0) return 1;
    // A family that is offered the server's tools up front (gpt-5.5 would find them with tool_search first).
    const run = await cli(["exec", "--json", "-m", "gpt-5.4", "call the tools"], env, work);
    process.stdout.write(run.out);
    const outputs = model.requests.flatMap((r) => (r.body.input ?? []).filter((i) => i.type === "function_call_output"));
    const failed = outputs.filter((o) => /error|failed|login/i.test(JSON.stringify(o.output)));
    if (run.status !== 0 || outputs.length === 0 || failed.length > 0) {
      process.stderr.write(`exec: status ${run.status}, ${outputs.length} tool outputs, failed: ${JSON.stringify(failed).slice(0, 500)}\n`);
      return 1;
    }
    return 0;
  } finally {
    await model.close();
    rmSync(root, { recursive: true, force: true });
  }
}

process.exitCode = await main();
