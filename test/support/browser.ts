/**
 * The browser's part in sign-in tests: a plain GET that does not follow redirects (the test
 * follows them itself, to see each hop), and where a redirect leads, with localhost pinned to
 * IPv4 as the sign-in servers listen.
 */
import http from "node:http";
import assert from "node:assert/strict";

export interface Fetched {
  status: number;
  location: string | undefined;
  body: string;
}

export function get(url: string): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        let body = "";
        res.on("data", (d: Buffer) => (body += d.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, body }));
      })
      .on("error", reject);
  });
}

/** Where the browser goes next: the redirect target, with localhost pinned to IPv4. */
export function follow(from: string, location: string | undefined): string {
  assert.ok(location, `no redirect from ${from}`);
  return new URL(location, from).toString().replace("//localhost:", "//127.0.0.1:");
}
