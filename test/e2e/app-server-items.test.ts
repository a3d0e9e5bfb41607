/**
 * `thread/items/list` end to end over stdio, every message checked against the reference's
 * schema: a thread's items oldest or newest first, in pages that chain (`nextCursor`) and turn
 * back (`backwardsCursor`), within one turn, from an item anchor, for a loaded thread and for a
 * recorded one read in a new server process, with the ids `thread/read` gives the same items.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { AppServerClient, assertNoViolations } from "../support/app-server-client.js";
import { makeWorkspace } from "../support/cli.js";
import { reasoning, startModelServer, text, turn } from "../support/model-server.js";

type Json = Record<string, unknown>;
interface Entry {
  turnId: string;
  item: { type: string; id: string };
  startedAtMs: number | null;
  completedAtMs: number | null;
}
interface Page {
  data: Entry[];
  nextCursor: string | null;
  backwardsCursor: string | null;
}

void test("thread/items/list: pages both ways, one turn, an anchor; loaded and recorded threads alike", async () => {
  const ws = makeWorkspace();
  const model = await startModelServer([turn(reasoning("Thinking it over"), text("First answer")), turn(text("Second answer"))]);
  writeFileSync(join(ws.home, "config.toml"), `openai_base_url = "${model.url}"\n`);
  let client = AppServerClient.spawn({ cwd: ws.dir, home: ws.home, env: { OPENAI_API_KEY: "sk-test" } });
  try {
    await client.initialize();
    const threadId = String(((await client.request("thread/start", { cwd: ws.dir })).thread as Json).id);
    const turnIds: string[] = [];
    for (const prompt of ["first", "second"]) {
      await client.request("turn/start", { threadId, input: [{ type: "text", text: prompt, text_elements: [] }] });
      turnIds.push(String(((await client.nextMethod("turn/completed")).params.turn as Json).id));
    }
    const list = (params: Json): Promise<Page> => client.request<Page>("thread/items/list", { threadId, ...params });
    const kinds = (page: Page): string[] => page.data.map((e) => e.item.type);

    const all = await list({});
    assert.deepEqual(kinds(all), ["userMessage", "reasoning", "agentMessage", "userMessage", "agentMessage"]);
    assert.deepEqual(all.data.map((e) => e.turnId), [turnIds[0], turnIds[0], turnIds[0], turnIds[1], turnIds[1]]);
    assert.equal(all.nextCursor, null);
    // The same ids thread/read gives.
    const read = (await client.request("thread/read", { threadId, includeTurns: true })).thread as { turns: Array<{ items: Array<{ id: string }> }> };
    assert.deepEqual(all.data.map((e) => e.item.id), read.turns.flatMap((t) => t.items.map((i) => i.id)));

    // Oldest first in pages of two, chained; then back the other way from the second page.
    const first = await list({ limit: 2 });
    assert.deepEqual(kinds(first), ["userMessage", "reasoning"]);
    const second = await list({ limit: 2, cursor: first.nextCursor });
    assert.deepEqual(kinds(second), ["agentMessage", "userMessage"]);
    const third = await list({ limit: 2, cursor: second.nextCursor });
    assert.deepEqual(kinds(third), ["agentMessage"]);
    assert.equal(third.nextCursor, null);
    const back = await list({ limit: 5, cursor: second.backwardsCursor, sortDirection: "desc" });
    assert.deepEqual(back.data.map((e) => e.item.id), first.data.map((e) => e.item.id).reverse(), "the backwards cursor reads what came before the page");

    // Newest first.
    const newest = await list({ limit: 2, sortDirection: "desc" });
    assert.deepEqual(kinds(newest), ["agentMessage", "userMessage"]);
    assert.equal(newest.data[0]?.turnId, turnIds[1]);

    // One turn, and from an item anchor in it.
    const inFirst = await list({ turnId: turnIds[0] });
    assert.deepEqual(kinds(inFirst), ["userMessage", "reasoning", "agentMessage"]);
    const anchor = { type: "item", itemId: inFirst.data[0]?.item.id };
    assert.deepEqual(kinds(await list({ turnId: turnIds[0], cursor: anchor })), ["reasoning", "agentMessage"]);
    assert.deepEqual(kinds(await list({ turnId: turnIds[0], cursor: { type: "item", itemId: inFirst.data[2]?.item.id }, sortDirection: "desc" })), ["reasoning", "userMessage"]);
    await assert.rejects(list({ cursor: anchor }), /an item anchor needs a non-empty `turnId`/);
    await assert.rejects(list({ turnId: "nope" }), /turn not found in thread/);
    await assert.rejects(list({ cursor: "bogus" }), /unknown cursor/);
    assertNoViolations(client);
    await client.close();

    // A recorded thread, not loaded, in a new server process: the same items, the same ids.
    client = AppServerClient.spawn({ cwd: ws.dir, home: ws.home, env: { OPENAI_API_KEY: "sk-test" } });
    await client.initialize();
    const recorded = await list({});
    assert.deepEqual(recorded.data.map((e) => [e.turnId, e.item.id]), all.data.map((e) => [e.turnId, e.item.id]));
    await assert.rejects(client.request("thread/items/list", { threadId: "00000000-0000-0000-0000-000000000000" }), /thread not found/);
    assertNoViolations(client);
  } finally {
    await client.close();
    await model.close();
  }
});
