// `npm run test:one -- <file>...`: builds incrementally (tsc reuses dist/.tsbuildinfo) and runs the
// given test files as `npm test` runs them (node --test, HOME and TMPDIR in a scratch folder that
// is removed afterwards: in-scratch.mjs), without the typed lint, so an edit-and-test loop takes
// seconds. A file may be named by its source (src/x/y.test.ts,
// test/e2e/z.test.ts) or its build (dist/...js); options (--test-name-pattern=…) go to node --test.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { runInScratch } from "./in-scratch.mjs";

const args = process.argv.slice(2);
const options = args.filter((a) => a.startsWith("--"));
const files = args.filter((a) => !a.startsWith("--")).map(built);
if (files.length === 0) {
  process.stderr.write("Usage: npm run test:one -- <test file>... [--test-name-pattern=NAME]\n");
  process.exit(2);
}

const build = spawnSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.json"], { stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);
for (const file of files) {
  if (!existsSync(file)) {
    process.stderr.write(`test:one: ${file} does not exist (is it a *.test.ts file under src/ or test/?)\n`);
    process.exit(2);
  }
}
process.exit(await runInScratch([process.execPath, "--test", ...options, ...files]));

/** The compiled file of a test named by its source or its build. */
function built(file) {
  const path = file.replace(/^\.\//, "");
  if (path.startsWith("dist/")) return path;
  return join("dist", path.replace(/\.ts$/, ".js"));
}
