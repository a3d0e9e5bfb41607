/** Shared by the benchmarks: what the machine was doing, printed next to the figures. */
import { readFileSync } from "node:fs";

/** The file system `dir` is on (ext4, tmpfs, …), from /proc/mounts; "unknown" elsewhere. */
export function fsType(dir) {
  try {
    const mounts = readFileSync("/proc/mounts", "utf8").split("\n").map((l) => l.split(" "));
    const hits = mounts.filter(([, at]) => at && (dir === at || dir.startsWith(at.endsWith("/") ? at : `${at}/`)));
    return hits.sort((a, b) => b[1].length - a[1].length)[0]?.[2] ?? "unknown";
  } catch {
    return "unknown";
  }
}

/** The 1-minute load average as text ("?" where /proc/loadavg does not exist). */
export function loadAverage() {
  try {
    return readFileSync("/proc/loadavg", "utf8").split(" ")[0];
  } catch {
    return "?";
  }
}
