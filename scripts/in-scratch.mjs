// `node scripts/in-scratch.mjs COMMAND [ARG...]`: runs COMMAND (the test runner) with HOME and
// TMPDIR in one fresh folder of the temporary folder, and removes that folder when it ends, so a
// test run leaves nothing behind however its tests end: a test that forgets its scratch folder,
// one killed by a timeout, a process that outlived it. HOME is empty, so the user's own shell
// start-up files and settings cannot change what the tests see. The folder's name is short
// (`/tmp/cts-XXXXXX`): tests read paths below it on 80- and 100-column screens.
//
// The sandbox tests also need a folder under no writable root, which /tmp and TMPDIR are: a second
// scratch folder in /var/tmp, named to them by CODEX_TS_TEST_OUTSIDE and removed the same way.
//
// Set CODEX_TS_KEEP_SCRATCH=1 to keep both for a look after a failure. Exits with COMMAND's status.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";

export function makeScratch() {
  const root = mkdtempSync(join(tmpdir(), "cts-"));
  const home = join(root, "home");
  mkdirSync(home);
  return { root, home, outside: makeOutsideScratch() };
}

/** A scratch folder in /var/tmp when that is a folder outside /tmp and TMPDIR, else null. */
function makeOutsideScratch() {
  try {
    const parent = realpathSync("/var/tmp");
    const inside = (root) => !relative(realpathSync(root), parent).startsWith("..");
    if (inside("/tmp") || inside(tmpdir())) return null;
    return mkdtempSync(join(parent, "cts-"));
  } catch {
    return null;
  }
}

export function removeScratch(...folders) {
  for (const folder of folders) {
    if (folder === null) continue;
    if (process.env.CODEX_TS_KEEP_SCRATCH === "1") process.stderr.write(`in-scratch: kept ${folder}\n`);
    else rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
  }
}

/** Runs argv with HOME and TMPDIR in a scratch folder; resolves with its exit status. */
export function runInScratch(argv, env = process.env) {
  const { root, home, outside } = makeScratch();
  const childEnv = { ...env, HOME: home, TMPDIR: root };
  if (outside !== null) childEnv.CODEX_TS_TEST_OUTSIDE = outside;
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), { stdio: "inherit", env: childEnv });
    // Ctrl+C reaches the child through the terminal; a signal sent to this process alone is passed on.
    const forward = (signal) => child.kill(signal);
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, forward);
    child.on("error", (err) => {
      process.stderr.write(`in-scratch: cannot run ${argv[0]}: ${err.message}\n`);
      removeScratch(root, outside);
      resolve(127);
    });
    child.on("close", (code, signal) => {
      removeScratch(root, outside);
      resolve(code ?? (signal === null ? 1 : 128 + (signalNumbers[signal] ?? 0)));
    });
  });
}

const signalNumbers = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const argv = process.argv.slice(2);
  if (argv.length === 0) {
    process.stderr.write("Usage: node scripts/in-scratch.mjs COMMAND [ARG...]\n");
    process.exit(2);
  }
  process.exit(await runInScratch(argv));
}
