import { test } from "node:test";
import assert from "node:assert/strict";
import { parse } from "smol-toml";
import { ConfigEditError, setTableValue } from "./toml-edit.js";

const TRUST = ["projects", "/home/me/app"];

void test("a missing table is appended after a blank line; everything else stays byte for byte", () => {
  const text = '# my settings\nmodel = "gpt-5" # the default\n\n[history]\npersistence = "none"\n';
  const out = setTableValue(text, TRUST, "trust_level", "trusted");
  assert.equal(out, `${text}\n[projects."/home/me/app"]\ntrust_level = "trusted"\n`);
  assert.equal(setTableValue("", TRUST, "trust_level", "untrusted"), '[projects."/home/me/app"]\ntrust_level = "untrusted"\n');
  assert.equal(setTableValue("model = 1", TRUST, "trust_level", "trusted"), 'model = 1\n\n[projects."/home/me/app"]\ntrust_level = "trusted"\n');
});

void test("an existing key is replaced on its line, keeping a trailing comment", () => {
  const text = '[projects."/home/me/app"]\ntrust_level = "untrusted" # decided on Monday\nother = 1\n\n[projects."/elsewhere"]\ntrust_level = "trusted"\n';
  const out = setTableValue(text, TRUST, "trust_level", "trusted");
  assert.equal(out, text.replace('"untrusted" # decided', '"trusted" # decided'));
});

void test("an existing table without the key gets it after its last key", () => {
  const text = '[projects."/home/me/app"]\nnote = "x"\n# about the next table\n[tui]\nnotifications = false\n';
  assert.equal(
    setTableValue(text, TRUST, "trust_level", "trusted"),
    '[projects."/home/me/app"]\nnote = "x"\ntrust_level = "trusted"\n# about the next table\n[tui]\nnotifications = false\n',
  );
});

void test("CRLF files keep CRLF", () => {
  const text = 'model = "m"\r\n';
  assert.equal(setTableValue(text, TRUST, "trust_level", "trusted"), 'model = "m"\r\n\r\n[projects."/home/me/app"]\r\ntrust_level = "trusted"\r\n');
});

void test("inline or dotted layouts go through the structural patch and keep the other data", () => {
  const inline = 'projects = { "/home/me/app" = { trust_level = "untrusted" }, "/x" = { trust_level = "trusted" } }\nmodel = "m"\n';
  const out = setTableValue(inline, TRUST, "trust_level", "trusted");
  assert.deepEqual(JSON.parse(JSON.stringify(parse(out))), {
    projects: { "/home/me/app": { trust_level: "trusted" }, "/x": { trust_level: "trusted" } },
    model: "m",
  });
  const dotted = '[projects]\n"/home/me/app".trust_level = "untrusted"\n';
  assert.deepEqual(JSON.parse(JSON.stringify(parse(setTableValue(dotted, TRUST, "trust_level", "trusted")))), {
    projects: { "/home/me/app": { trust_level: "trusted" } },
  });
});

void test("invalid TOML is refused, not rewritten", () => {
  assert.throws(() => setTableValue("model = = 1\n", TRUST, "trust_level", "trusted"), ConfigEditError);
});
