/**
 * `codex-ts apply_patch [PATCH]`: applies a patch (the argument, or stdin) in the current
 * directory, printing and exiting as the reference's standalone `apply_patch` does: 0 when
 * applied, 1 when the patch is invalid or does not apply (nothing is changed then), 2 for usage.
 */
import { readFileSync } from "node:fs";
import { isatty } from "node:tty";
import { applyPatchIn } from "../host/standalone.js";
import { writeToFd } from "./write-fd.js";
import { errorCode } from "../util/errors.js";

const USAGE = "Usage: codex-ts apply_patch 'PATCH'\n       echo 'PATCH' | codex-ts apply_patch\n";

export async function runApplyPatchCommand(args: readonly string[]): Promise<number> {
  if (args.length > 1) {
    process.stderr.write("Error: apply_patch accepts exactly one PATCH argument.\n");
    return 2;
  }
  const patch = args[0] ?? (await readStdin());
  if (patch === null || patch === "") {
    process.stderr.write(USAGE);
    return 2;
  }
  const result = await applyPatchIn(patch, process.cwd());
  if (result.stdout) writeToFd(1, result.stdout);
  if (result.stderr) writeToFd(2, result.stderr);
  return result.ok ? 0 : 1;
}

/** The patch piped on stdin; null when stdin is a terminal (nothing will come). */
async function readStdin(): Promise<string | null> {
  if (isatty(0)) return null;
  try {
    // One blocking read to the end: nothing else runs meanwhile, and a stream would cost a
    // thread-pool round trip per 64 KiB chunk.
    return readFileSync(0, "utf8");
  } catch (err) {
    // A non-blocking pipe inherited from the parent cannot be read that way: stream it.
    if (errorCode(err) !== "EAGAIN") throw err;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
