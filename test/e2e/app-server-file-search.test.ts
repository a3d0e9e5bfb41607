/**
 * `fuzzyFileSearch` over stdio against real folders, every message checked against the
 * reference's schema: files and folders matched and ranked, indices in characters, several roots
 * merged, ignored and denied files never offered, what the reference answers for bad roots, a
 * cancelled search, and the experimental session form with its notifications.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { AppServerClient, assertNoViolations } from "../support/app-server-client.js";
import { makeWorkspace } from "../support/cli.js";

type Json = Record<string, unknown>;
interface Result {
  root: string;
  path: string;
  match_type: string;
  file_name: string;
  score: number;
  indices: number[] | null;
}

function plant(root: string, files: string[]): void {
  for (const file of files) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), "x");
  }
}

async function withServer(experimentalApi: boolean, body: (client: AppServerClient, ws: { dir: string; home: string }) => Promise<void>): Promise<void> {
  const ws = makeWorkspace();
  // Files under secrets/ are off limits: the search must not reveal them either.
  writeFileSync(join(ws.home, "config.toml"), ['default_permissions = "locked"', "[permissions.locked]", 'extends = ":workspace"', "[permissions.locked.filesystem]", '":project_roots" = { "secrets/**" = "none" }', ""].join("\n"));
  const client = AppServerClient.spawn({ cwd: ws.dir, home: ws.home });
  try {
    await client.initialize("file_search_client", experimentalApi);
    await body(client, ws);
    assertNoViolations(client);
  } finally {
    await client.close();
  }
}

void test("fuzzyFileSearch: files and folders best first, indices in characters, roots merged, ignored and denied files hidden", async () => {
  await withServer(false, async (client, { dir }) => {
    const app = join(dir, "app");
    const other = join(dir, "other");
    plant(app, [".gitignore", "src/main.ts", "src/mainframe.ts", "src/components/Button.tsx", "main.rs", "build/main.js", "secrets/main.key", "é/日本/😀x.md"]);
    writeFileSync(join(app, ".gitignore"), "build/\n");
    plant(other, ["lib/main.py"]);
    for (let i = 0; i < 60; i++) plant(other, [`many/file${i}.txt`]);

    const search = async (query: string, roots: string[], extra: Json = {}): Promise<Result[]> => (await client.request<{ files: Result[] }>("fuzzyFileSearch", { query, roots, ...extra })).files;

    const main = await search("main", [app]);
    assert.deepEqual(main.map((f) => f.path), ["main.rs", "src/main.ts", "src/mainframe.ts"], "the ignored build/ and the denied secrets/ are not offered");
    assert.deepEqual(main[1], { root: app, path: "src/main.ts", match_type: "file", file_name: "main.ts", score: main[1]?.score, indices: [4, 5, 6, 7] });
    for (let i = 1; i < main.length; i++) assert.ok((main[i - 1]?.score ?? 0) >= (main[i]?.score ?? 0), "best first");

    const src = await search("src", [app]);
    assert.deepEqual(src[0], { root: app, path: "src", match_type: "directory", file_name: "src", score: src[0]?.score, indices: [0, 1, 2] });
    assert.ok(src.some((f) => f.path === "src/components" && f.match_type === "directory"));

    // Indices count characters, as the reference's: the emoji is one.
    const emoji = await search("本x", [app]);
    assert.deepEqual(emoji.map((f) => [f.path, f.indices]), [["é/日本/😀x.md", [3, 6]]]);

    const both = await search("main", [app, other]);
    assert.ok(both.some((f) => f.root === other && f.path === "lib/main.py"));
    assert.ok(both.some((f) => f.root === app && f.path === "src/main.ts"));
    assert.equal((await search("file", [other])).length, 50, "at most 50 results");

    // Denied files that would fill the page are passed over for the visible ones behind them.
    const crowded = join(dir, "crowded");
    plant(crowded, [...Array.from({ length: 120 }, (_, i) => `secrets/key${i}.txt`), "docs/keys-howto.md", "deep/down/the/tree/monkey.txt"]);
    const keys = await search("key", [crowded]);
    assert.deepEqual(keys.filter((f) => f.match_type === "file").map((f) => f.path).sort(), ["deep/down/the/tree/monkey.txt", "docs/keys-howto.md"]);

    // What the reference answers: nothing for an empty query or a root that is relative, missing or none at all.
    assert.deepEqual(await search("", [app]), []);
    assert.deepEqual(await search("main", ["relative/path"]), []);
    assert.deepEqual(await search("main", [join(dir, "missing")]), []);
    assert.deepEqual(await search("main", []), []);
    assert.deepEqual(await search("zzqqxx", [app]), []);

    // A later search with the same cancellation token makes the earlier one, still waiting for its index, answer empty.
    const fresh = join(dir, "fresh");
    plant(fresh, ["alpha.ts", "beta.ts"]);
    const [first, second] = await Promise.all([search("alpha", [fresh], { cancellationToken: "t" }), search("beta", [fresh], { cancellationToken: "t" })]);
    assert.deepEqual(first, []);
    assert.deepEqual(second.map((f) => f.path), ["beta.ts"]);

    await assert.rejects(client.request("fuzzyFileSearch", { query: "x" }), /missing field `roots`/);
    await assert.rejects(client.request("fuzzyFileSearch/sessionStart", { sessionId: "s", roots: [app] }), /requires experimentalApi capability/);
  });
});

void test("fuzzyFileSearch sessions: each query answered by sessionUpdated then sessionCompleted, until stopped", async () => {
  await withServer(true, async (client, { dir }) => {
    const root = join(dir, "proj");
    plant(root, ["src/main.ts", "docs/guide.md", "README.md"]);
    assert.deepEqual(await client.request("fuzzyFileSearch/sessionStart", { sessionId: "s1", roots: [root] }), {});
    // The start reports the empty query once the files are listed (or the first query that came meanwhile).
    assert.deepEqual(await client.request("fuzzyFileSearch/sessionUpdate", { sessionId: "s1", query: "guide" }), {});
    const updated = await client.next((m) => m.method === "fuzzyFileSearch/sessionUpdated" && (m.params as Json).query === "guide");
    const files = (updated.params as { files: Result[] }).files;
    assert.deepEqual(files.map((f) => [f.path, f.match_type]), [["docs/guide.md", "file"]]);
    const completed = await client.nextMethod("fuzzyFileSearch/sessionCompleted");
    assert.deepEqual(completed.params, { sessionId: "s1" });

    await client.request("fuzzyFileSearch/sessionUpdate", { sessionId: "s1", query: "" });
    const cleared = await client.next((m) => m.method === "fuzzyFileSearch/sessionUpdated" && (m.params as Json).query === "");
    assert.deepEqual((cleared.params as Json).files, []);
    await client.nextMethod("fuzzyFileSearch/sessionCompleted");

    assert.deepEqual(await client.request("fuzzyFileSearch/sessionStop", { sessionId: "s1" }), {});
    await assert.rejects(client.request("fuzzyFileSearch/sessionUpdate", { sessionId: "s1", query: "x" }), /fuzzy file search session not found: s1/);
    assert.deepEqual(await client.request("fuzzyFileSearch/sessionStop", { sessionId: "never" }), {}, "stopping an unknown session is no error, as in the reference");
    await assert.rejects(client.request("fuzzyFileSearch/sessionStart", { sessionId: "s2", roots: [] }), /at least one search directory is required/);
    await assert.rejects(client.request("fuzzyFileSearch/sessionStart", { sessionId: "", roots: [root] }), /sessionId must not be empty/);
    const after = client.received.length;
    await client.request("fuzzyFileSearch", { query: "main", roots: [root] });
    assert.equal(client.received.slice(after).filter((m) => m.method === "fuzzyFileSearch/sessionUpdated").length, 0, "a stopped session reports nothing more");
  });
});
