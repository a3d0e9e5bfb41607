#!/usr/bin/env node
/**
 * codex-ts entry point. `--version` is answered before anything else is loaded, so the most
 * common probe costs no more than starting Node; every subcommand imports its code lazily.
 */
import { packageVersion } from "../util/version.js";

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
  process.stdout.write(`codex-ts ${packageVersion()}\n`);
} else {
  const { runCli } = await import("./commands.js");
  process.exitCode = await runCli(process.argv);
}
