/**
 * Folders of files for the patch engine's tests: a fresh tree from a map of contents, and a
 * snapshot of everything under a folder (type, mode, content or link target) to compare
 * before and after a patch.
 */
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";

/** A fresh folder (canonical path) holding `files`, relative path to content. */
export function workspace(files: Record<string, string> = {}): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "codex-ts-patch-")));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}

/** Every entry under dir: its type, permission bits, and content or link target. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      const info = lstatSync(full);
      const mode = (info.mode & 0o7777).toString(8);
      const key = relative(dir, full);
      if (info.isSymbolicLink()) out[key] = `link -> ${readlinkSync(full)}`;
      else if (info.isDirectory()) {
        out[`${key}/`] = `dir ${mode}`;
        walk(full);
      } else if (info.isFile()) out[key] = `file ${mode} ${JSON.stringify(readFileSync(full, "utf8"))}`;
      else out[key] = `special ${mode}`;
    }
  };
  walk(dir);
  return out;
}

export const wrapPatch = (body: string): string => `*** Begin Patch\n${body}\n*** End Patch\n`;
