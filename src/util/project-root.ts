/** The project root: the nearest folder, from `dir` upwards, holding one of the marker entries. */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";

export function findProjectRoot(dir: string, markers: readonly string[]): string | null {
  for (let d = dir; ; d = dirname(d)) {
    if (markers.some((m) => existsSync(join(d, m)))) return d;
    if (dirname(d) === d) return null;
  }
}
