/** Shared by the benchmarks: they measure the compiled build, so it must exist first. */
import { existsSync } from "node:fs";

/** Exits with status 2 and a hint when any of `files` has not been built. */
export function requireBuilt(...files) {
  for (const file of files) {
    if (!existsSync(file)) {
      console.error(`${file} is missing: run \`npm run build\` first.`);
      process.exit(2);
    }
  }
}
