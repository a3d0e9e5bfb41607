/** Shared by the benchmarks: GNU time can report a child's peak RSS (`%M`, KiB); other builds cannot. */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

export function gnuTimePath() {
  const path = "/usr/bin/time";
  if (!existsSync(path)) return undefined;
  const probe = spawnSync(path, ["--version"], { encoding: "utf8" });
  return `${probe.stdout}${probe.stderr}`.includes("GNU") ? path : undefined;
}
