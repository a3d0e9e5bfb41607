import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { builtinProviders, type ModelProvider } from "../model/provider.js";
import { checkLocalProvider, ossBaseUrl } from "./oss.js";

function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` })));
}

const close = (server: Server): Promise<void> => new Promise((resolve) => server.close(() => resolve()));

function ollamaAt(baseUrl: string): ModelProvider {
  const provider = builtinProviders(undefined).ollama;
  assert.ok(provider);
  return { ...provider, baseUrl };
}

void test("the local server check: null when /models answers, a hint when nothing listens or it answers an error", async () => {
  const seen: string[] = [];
  const up = await listen((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (req.url === "/v1/models") res.end('{"data":[]}');
    else res.writeHead(404).end();
  });
  try {
    assert.equal(await checkLocalProvider(ollamaAt(up.url)), null);
    assert.equal(await checkLocalProvider(ollamaAt(`${up.url}/`)), null, "a trailing slash is fine");
    assert.deepEqual(seen, ["GET /v1/models", "GET /v1/models"]);
    const wrong = await checkLocalProvider(ollamaAt(up.url.replace("/v1", "/nope")));
    assert.match(wrong ?? "", /answered GET \/models with HTTP 404/);
  } finally {
    await close(up.server);
  }
  const down = await checkLocalProvider(ollamaAt(up.url));
  assert.equal(down, `No Ollama server is answering at ${up.url}. Start it with \`ollama serve\`, or pick another provider.`);
  const lmstudio = builtinProviders(undefined).lmstudio;
  assert.ok(lmstudio);
  assert.match((await checkLocalProvider({ ...lmstudio, baseUrl: up.url })) ?? "", /^No LM Studio server is answering at .*\(`lms server start`\)/);
});

void test("a server that never answers is given up on after 2 seconds", async () => {
  const silent = await listen(() => undefined);
  try {
    const started = Date.now();
    assert.match((await checkLocalProvider(ollamaAt(silent.url))) ?? "", /No Ollama server is answering/);
    assert.ok(Date.now() - started < 4000);
  } finally {
    silent.server.closeAllConnections();
    await close(silent.server);
  }
});

void test("CODEX_OSS_BASE_URL replaces the URL, CODEX_OSS_PORT the port", () => {
  assert.equal(ossBaseUrl("ollama", {}), "http://localhost:11434/v1");
  assert.equal(ossBaseUrl("lmstudio", {}), "http://localhost:1234/v1");
  assert.equal(ossBaseUrl("ollama", { CODEX_OSS_PORT: "8080" }), "http://localhost:8080/v1");
  assert.equal(ossBaseUrl("ollama", { CODEX_OSS_PORT: "not-a-port" }), "http://localhost:11434/v1");
  assert.equal(ossBaseUrl("ollama", { CODEX_OSS_PORT: "8080", CODEX_OSS_BASE_URL: "http://gpu:1/v1" }), "http://gpu:1/v1");
  assert.equal(ossBaseUrl("ollama", { CODEX_OSS_BASE_URL: "  " }), "http://localhost:11434/v1");
});
