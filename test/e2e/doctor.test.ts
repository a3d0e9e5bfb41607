/**
 * `codex-ts doctor`: real probes against a real setup. A healthy one (the scripted provider
 * listing models, a key, a stdio MCP server, a rules file, the real sandbox) reports its checks
 * ok in the reference's JSON shape; a broken one names each problem with its fix and exits 1.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeWorkspace, runCli } from "../support/cli.js";
import { listedModel, startModelServer } from "../support/model-server.js";
import { STDIO_SERVER_PATH } from "../fixtures/mcp/stdio-server.js";

interface JsonCheck {
  id: string;
  category: string;
  status: string;
  summary: string;
  details: Record<string, string>;
  remediation: string | null;
  durationMs: number;
}

const serverToml = (name: string, command: string, args: string[], extra = ""): string =>
  `[mcp_servers.${name}]\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}\n${extra}\n`;

void test("doctor --json on a healthy setup: every check in the reference's shape, the probes passing", async () => {
  const server = await startModelServer([], { models: { models: [listedModel("gpt-5.5", 1)] } });
  try {
    const ws = makeWorkspace({ config: `openai_base_url = "${server.url}"\n${serverToml("fx", process.execPath, [STDIO_SERVER_PATH, "--name", "fx"])}` });
    mkdirSync(join(ws.home, "rules"));
    writeFileSync(join(ws.home, "rules", "default.rules"), 'prefix_rule(pattern = ["git", "push"], decision = "prompt")\n');
    const r = await runCli(["doctor", "--json"], { cwd: ws.dir, home: ws.home, timeoutMs: 60_000 });
    const report = JSON.parse(r.stdout) as { schemaVersion: number; generatedAt: string; overallStatus: string; codexVersion: string; checks: Record<string, JsonCheck> };
    assert.equal(report.schemaVersion, 1);
    assert.match(report.generatedAt, /^\d{4}-\d{2}-\d{2}T/);
    for (const [id, check] of Object.entries(report.checks)) {
      assert.equal(check.id, id);
      assert.deepEqual(Object.keys(check), ["id", "category", "status", "summary", "details", "remediation", "durationMs"]);
      assert.ok(["ok", "warning", "fail"].includes(check.status));
      assert.equal(check.remediation === null, check.status === "ok", `${id}: a fix exactly when not ok`);
    }
    const c = report.checks;
    assert.equal(c["config.load"]?.status, "ok");
    assert.equal(c["config.rules"]?.summary, "1 command rule parsed");
    assert.equal(c["auth.credentials"]?.summary, "API key from OPENAI_API_KEY");
    assert.equal(c["mcp.servers"]?.status, "ok", JSON.stringify(c["mcp.servers"]));
    assert.match(c["mcp.servers"]?.details.fx ?? "", /^ready, \d+ tools? \(stdio\)$/);
    assert.equal(c["network.provider"]?.status, "ok", JSON.stringify(c["network.provider"]));
    assert.equal(c["sandbox.confinement"]?.status, "ok", JSON.stringify(c["sandbox.confinement"]));
    assert.equal(c["sandbox.confinement"]?.details["write beside it"], "refused");
    assert.notEqual(c["disk.codex_home"]?.status, "fail");
    assert.equal(r.code, report.overallStatus === "fail" ? 1 : 0);
    assert.equal(server.requests.length, 0, "no model request: only the model list is asked for");
  } finally {
    await server.close();
  }
});

void test("doctor names each problem with its fix and exits 1: broken rules, no key, a refused key, a failing required MCP server", async () => {
  // The provider refuses the key, as a real one answers a wrong key on its model list.
  const server = await startModelServer([], { models: { models: [], status: 401 } });
  try {
    const ws = makeWorkspace({ config: `openai_base_url = "${server.url}"\n${serverToml("broken", "/nonexistent/mcp-server", [], "required = true")}` });
    mkdirSync(join(ws.home, "rules"));
    writeFileSync(join(ws.home, "rules", "bad.rules"), "prefix_rule(pattern = \n");
    const human = await runCli(["doctor"], { cwd: ws.dir, home: ws.home, timeoutMs: 60_000 });
    assert.equal(human.code, 1);
    assert.match(human.stdout, /^codex-ts doctor v/);
    assert.match(human.stdout, /✗ rules +a rules file does not parse: .*bad\.rules/);
    assert.match(human.stdout, /✗ mcp +1 of 1 MCP server did not start: broken\n[\s\S]*fix: .*a required server that fails stops every session/);
    assert.match(human.stdout, /✗ reachability +.* refused the credentials \(HTTP 401\)\n[\s\S]*fix: check the API key/);
    assert.match(human.stdout, /\d+ ok · \d+ warning · \d+ failed\n$/);

    const noKey = await runCli(["doctor", "--json"], { cwd: ws.dir, home: ws.home, env: { OPENAI_API_KEY: undefined }, timeoutMs: 60_000 });
    const checks = (JSON.parse(noKey.stdout) as { checks: Record<string, JsonCheck> }).checks;
    assert.equal(checks["auth.credentials"]?.status, "fail");
    assert.match(checks["auth.credentials"]?.remediation ?? "", /codex-ts login/);

    writeFileSync(join(ws.home, "config.toml"), "model = \n");
    const badConfig = await runCli(["doctor", "--json"], { cwd: ws.dir, home: ws.home, timeoutMs: 60_000 });
    const load = (JSON.parse(badConfig.stdout) as { checks: Record<string, JsonCheck> }).checks["config.load"];
    assert.equal(load?.status, "fail");
    assert.match(load?.summary ?? "", /config does not load: .*config\.toml:1/);
  } finally {
    await server.close();
  }
});
