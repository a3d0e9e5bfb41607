import { test } from "node:test";
import assert from "node:assert/strict";
import { stripAnsi } from "./theme.js";
import { SignInScreen, type PendingSignIn, type SignInOptions, type SignInOutcome } from "./sign-in.js";

const text = (screen: SignInScreen, width = 50): string => screen.render(width).map((l) => stripAnsi(l).trimEnd()).join("\n");
const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

/** A sign-in the test settles itself. */
function pending(url: string): { sign: PendingSignIn; succeed(email: string | null): void; fail(message: string): void; cancelled: () => boolean } {
  let cancelled = false;
  let settle!: { resolve(v: { email: string | null }): void; reject(e: Error): void };
  const done = new Promise<{ email: string | null }>((resolve, reject) => (settle = { resolve, reject }));
  done.catch(() => {});
  return {
    sign: { url, done, cancel: () => ((cancelled = true), settle.reject(new Error("cancelled"))) },
    succeed: (email) => settle.resolve({ email }),
    fail: (message) => settle.reject(new Error(message)),
    cancelled: () => cancelled,
  };
}

function screen(start: () => Promise<PendingSignIn>, overrides: Partial<SignInOptions> = {}): { s: SignInScreen; outcomes: SignInOutcome[] } {
  const outcomes: SignInOutcome[] = [];
  const s = new SignInScreen({ chatgptAllowed: true, apiKeyAllowed: true, startChatGpt: start, requestRender: () => undefined, ...overrides }, (o) => outcomes.push(o));
  return { s, outcomes };
}

void test("the choice: ChatGPT first, the API key second, Esc quits", () => {
  const { s, outcomes } = screen(() => Promise.reject(new Error("unused")));
  const shown = text(s);
  assert.match(shown, /^Sign in to use codex-ts$/m);
  assert.match(shown, /No API key or ChatGPT login was found/);
  assert.match(shown, /› 1\. Sign in with ChatGPT \(uses your plan\) \(c\)\n {2}2\. Provide your own API key \(pay per use\) \(k\)/);
  assert.ok(s.render(30).every((l) => stripAnsi(l).length <= 30));
  s.handleInput("\x1b");
  assert.deepEqual(outcomes, ["quit"]);
});

void test("the API-key page says how to provide one; Esc comes back to the choice", () => {
  const { s, outcomes } = screen(() => Promise.reject(new Error("unused")));
  s.handleInput("k");
  assert.match(text(s, 70), /OPENAI_API_KEY[\s\S]*export OPENAI_API_KEY=sk-\.\.\.[\s\S]*codex-ts login --with-api-key/);
  s.handleInput("\x1b");
  assert.match(text(s), /1\. Sign in with ChatGPT/);
  assert.deepEqual(outcomes, []);
});

void test("ChatGPT: the address is shown whole across rows, and the screen ends with the account once signed in", async () => {
  const url = `http://127.0.0.1:9/oauth/authorize?client_id=app_x&state=${"s".repeat(60)}`;
  const p = pending(url);
  const { s, outcomes } = screen(() => Promise.resolve(p.sign));
  s.handleInput("\r");
  await tick();
  const rows = s.render(40).map((l) => stripAnsi(l));
  assert.ok(rows.every((l) => l.length <= 40));
  assert.ok(rows.join("").includes(url), "the address is cut into rows but nothing is lost");
  assert.match(text(s, 40), /Esc to cancel/);
  p.succeed("dev@example.com");
  await tick();
  assert.deepEqual(outcomes, [{ email: "dev@example.com" }]);
});

void test("ChatGPT: a failure is shown above the choice to try again; Esc while waiting cancels and comes back", async () => {
  const first = pending("http://issuer/a");
  const second = pending("http://issuer/b");
  const queue = [first, second];
  const { s, outcomes } = screen(() => Promise.resolve((queue.shift() ?? second).sign));
  s.handleInput("c");
  await tick();
  first.fail("Sign-in failed: access_denied");
  await tick();
  assert.match(text(s), /Sign-in failed: access_denied[\s\S]*1\. Sign in with ChatGPT/);
  s.handleInput("1");
  await tick();
  assert.match(text(s), /http:\/\/issuer\/b/);
  s.handleInput("\x1b");
  await tick();
  assert.ok(second.cancelled());
  assert.doesNotMatch(text(s), /cancelled/, "a cancel is not reported as a failure");
  assert.match(text(s), /1\. Sign in with ChatGPT/);
  assert.deepEqual(outcomes, []);
});

void test('forced_login_method = "api" offers only the API key', () => {
  const { s } = screen(() => Promise.reject(new Error("unused")), { chatgptAllowed: false });
  assert.doesNotMatch(text(s), /ChatGPT \(uses/);
  assert.match(text(s), /› 1\. Provide your own API key/);
});
