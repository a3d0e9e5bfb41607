/**
 * Opening the authorization URL: the command in `$BROWSER` when it is set (given the URL as its
 * one argument), else the platform's opener. Never fatal: the URL is printed as well, and a
 * machine without a browser just leaves it to the user.
 */
import { spawn } from "node:child_process";

function opener(env: NodeJS.ProcessEnv): { command: string; args: string[] } {
  const browser = env.BROWSER?.trim();
  if (browser) return { command: browser, args: [] };
  if (process.platform === "darwin") return { command: "open", args: [] };
  if (process.platform === "win32") return { command: "cmd", args: ["/c", "start", ""] };
  return { command: "xdg-open", args: [] };
}

/** Resolves true when the opener started, false when it could not be run at all. */
export function openInBrowser(url: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const { command, args } = opener(env);
  return new Promise((resolve) => {
    try {
      const child = spawn(command, [...args, url], { stdio: "ignore", detached: true, env });
      child.once("error", () => resolve(false));
      child.once("spawn", () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}
