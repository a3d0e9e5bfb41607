/** A command as a person reads it, shared by front ends. */
import { shellJoin } from "../util/shell-quote.js";

/** `bash -lc "script"` reads as the script itself; any other argv is shell-quoted. */
export function displayCommand(argv: readonly string[]): string {
  if (argv.length === 3 && /(^|\/)(ba|z)?sh$/.test(argv[0] ?? "") && (argv[1] === "-lc" || argv[1] === "-c")) return argv[2] ?? "";
  return shellJoin(argv);
}
