/**
 * `codex-ts doctor [--json]`: runs every check (those that wait on processes or the network
 * concurrently), prints the report, and exits 1 when one failed. The config is loaded as a
 * session would load it (`-c`, `-p` apply); when it does not load, the checks that need it are
 * left out and the config check says why.
 */
import { resolve } from "node:path";
import { codexHome } from "../../config/codex-home.js";
import { loadConfig, type Config } from "../../config/load-config.js";
import { ConfigError } from "../../config/overrides.js";
import { configInputFromFlags } from "../../config/session-flags.js";
import { packageVersion } from "../../util/version.js";
import { configCheck, configErrorCheck, mcpCheck, rulesCheck } from "../../host/doctor/checks-config.js";
import { diskCheck, gitCheck, runtimeCheck, shellSnapshotCheck } from "../../host/doctor/checks-environment.js";
import { reachabilityCheck } from "../../host/doctor/checks-network.js";
import { bubblewrapCheck, confinementCheck, landlockCheck, seatbeltCheck, userNamespacesCheck } from "../../host/doctor/checks-sandbox.js";
import { buildReport, renderReport, type Check, type Finding } from "../../host/doctor/report.js";
import { authCheck } from "./checks-auth.js";
import { errorMessage } from "../../util/errors.js";

export interface DoctorOptions {
  json?: boolean;
  ascii?: boolean;
  config: string[];
  profile?: string;
}

type Probe = [id: string, category: string, run: () => Finding | Promise<Finding>];

export async function runDoctor(opts: DoctorOptions, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const cwd = resolve(process.cwd());
  let config: Config | null = null;
  let configError: string | null = null;
  try {
    config = loadConfig({ ...configInputFromFlags(cwd, { config: opts.config, profile: opts.profile, addDir: [] }), env });
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    configError = err.message;
  }
  const home = config?.codexHome ?? codexHome(env);
  const probes: Probe[] = [
    ["runtime.node", "runtime", runtimeCheck],
    ["disk.codex_home", "disk", () => diskCheck(home)],
    ["git.executable", "git", () => gitCheck(cwd)],
    ["shell.snapshot", "shell", () => shellSnapshotCheck(cwd, env, config?.features.shell_snapshot !== false)],
    ["sandbox.bubblewrap", "sandbox", () => bubblewrapCheck(cwd)],
    ["sandbox.user_namespaces", "sandbox", userNamespacesCheck],
    ["sandbox.landlock", "sandbox", landlockCheck],
    ["sandbox.seatbelt", "sandbox", seatbeltCheck],
    ["sandbox.confinement", "sandbox", confinementCheck],
  ];
  if (config === null) probes.push(["config.load", "config", () => configErrorCheck(configError ?? "unknown error")]);
  else {
    const loaded = config;
    probes.push(
      ["config.load", "config", () => configCheck(loaded)],
      ["config.rules", "rules", () => rulesCheck(loaded)],
      ["auth.credentials", "auth", () => authCheck(loaded, env)],
      ["mcp.servers", "mcp", () => mcpCheck(loaded, env)],
      ["network.provider", "reachability", () => reachabilityCheck(loaded, env)],
    );
  }
  const checks = await Promise.all(probes.map(([id, category, run]) => timed(id, category, run)));
  const report = buildReport(checks, packageVersion());
  process.stdout.write(opts.json ? `${JSON.stringify(report, null, 2)}\n` : renderReport(report, { ascii: opts.ascii === true, platform: `${process.platform}-${process.arch}` }));
  return report.overallStatus === "fail" ? 1 : 0;
}

async function timed(id: string, category: string, run: () => Finding | Promise<Finding>): Promise<Check> {
  const started = performance.now();
  let finding: Finding;
  try {
    finding = await run();
  } catch (err) {
    // A probe that breaks is itself a finding, not a crash of the whole report.
    finding = { status: "fail", summary: `the check itself failed: ${errorMessage(err)}`, details: {}, remediation: "report this with the output of `codex-ts doctor --json`" };
  }
  return { id, category, ...finding, durationMs: Math.round(performance.now() - started) };
}
