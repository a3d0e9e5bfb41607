/**
 * The package version. The bundled build (scripts/bundle.mjs) writes it in as a constant, since
 * its files sit at another depth below package.json; the tsc build reads package.json beside it.
 */
import { readFileSync } from "node:fs";

/** Replaced by the bundler with the version string; undeclared (typeof "undefined") under tsc. */
declare const CODEX_TS_BUNDLED_VERSION: string | undefined;

export function packageVersion(): string {
  if (typeof CODEX_TS_BUNDLED_VERSION === "string") return CODEX_TS_BUNDLED_VERSION;
  const pkg = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version: string };
  return pkg.version;
}
