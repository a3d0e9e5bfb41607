#!/usr/bin/env node
/**
 * codex-ts entry point. `--version` is answered before anything else is loaded, so the most
 * common probe costs no more than starting Node; every subcommand imports its code lazily.
 * `apply_patch` with at most its patch argument also skips the command tree: tools call it
 * once per edit, and loading commander would cost more than most patches take to apply.
 *
 * The shipped binary is this file bundled as CommonJS (scripts/bundle.mjs): no top-level await
 * here, so that `--version` and `apply_patch` run without starting Node's ES module loader.
 */
import nodeModule from "node:module";
import { packageVersion } from "../util/version.js";
import { writeToFd } from "./write-fd.js";

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
  printVersion();
} else {
  // A reader that stops early (`codex-ts --help | head`, `codex-ts exec … | head -1`) closes the
  // pipe: that ends the output the user wanted, not an error worth a stack trace.
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code !== "EPIPE") throw err;
    process.exit(process.exitCode ?? 0);
  });
  // Node 22.1+ keeps compiled code on disk between runs; Node 20 lacks the call (nothing happens).
  (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  void run(argv).then((code) => {
    process.exitCode = code;
  });
}

/** Written straight to fd 1: setting up process.stdout would cost more than the rest of the run. */
function printVersion(): void {
  writeToFd(1, `codex-ts ${packageVersion()}\n`);
}

async function run(args: readonly string[]): Promise<number> {
  if (isPlainApplyPatch(args)) {
    const { runApplyPatchCommand } = await import("./apply-patch-command.js");
    return runApplyPatchCommand(args.slice(1));
  }
  const { runCli } = await import("./commands.js");
  return runCli(process.argv);
}

/** `apply_patch [PATCH]` without options (`--help` and the like still go through the command tree). */
function isPlainApplyPatch(args: readonly string[]): boolean {
  const [command, patch] = args;
  return (command === "apply_patch" || command === "apply-patch") && args.length <= 2 && !(patch ?? "").startsWith("-");
}
