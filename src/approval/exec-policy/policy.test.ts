import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ExecPolicy } from "./policy.js";
import { RulesError } from "./rules-parser.js";
import { splitShellWords } from "../../util/shell-words.js";
import { ruleOn } from "./command-ruling.js";
import { persistAmendment } from "./amendment.js";

const RULES = `
# git: pushing and fetching talk to the network
prefix_rule(
    pattern = ["git", ["push", "fetch"]],
    decision = "prompt",
    justification = 'network',
    match = ["git push origin", ["git", "fetch"]],
    not_match = ["git status", "git --no-pager push"],
)
prefix_rule(pattern = ["git", "push", "--force"], decision = "forbidden", justification = """history is shared""")
prefix_rule(pattern=["ls"],)
host_executable(name = "git", paths = ["/usr/bin/git"])
`;

function policy(text = RULES): ExecPolicy {
  const p = ExecPolicy.empty();
  p.addFile("team.rules", text);
  return p;
}

void test("prefix rules: alternatives, the strictest decision wins, the reference's JSON shape", () => {
  const p = policy();
  const table: Array<[string[], string | undefined]> = [
    [["git", "push", "origin"], "prompt"],
    [["git", "fetch"], "prompt"],
    [["git", "push", "--force", "x"], "forbidden"],
    [["/usr/bin/git", "push", "--force"], "forbidden"],
    [["git", "status"], undefined],
    [["git"], undefined],
    [["ls", "-la"], "allow"],
    [["lsof"], undefined],
  ];
  for (const [argv, decision] of table) assert.equal(p.evaluate(argv).decision, decision, argv.join(" "));
  assert.deepEqual(p.evaluate(["git", "push", "--force"]), {
    matchedRules: [
      { prefixRuleMatch: { matchedPrefix: ["git", "push"], decision: "prompt", justification: "network" } },
      { prefixRuleMatch: { matchedPrefix: ["git", "push", "--force"], decision: "forbidden", justification: "history is shared" } },
    ],
    decision: "forbidden",
  });
  assert.deepEqual(p.evaluate(["rm", "-rf", "x"]), { matchedRules: [] });
});

void test("bash -lc scripts are judged command by command; allow needs every part allowed", async () => {
  const p = policy();
  assert.deepEqual(await ruleOn(p, ["bash", "-lc", "ls && git push origin"]), { decision: "prompt", justification: "network" });
  assert.deepEqual(await ruleOn(p, ["bash", "-lc", "ls -a; ls"]), { decision: "allow" });
  assert.equal(await ruleOn(p, ["bash", "-lc", "ls && rm -rf x"]), null, "an unknown part leaves it to the approval policy");
  assert.deepEqual(await ruleOn(p, ["bash", "-lc", "git push --force"]), { decision: "forbidden", justification: "history is shared" });
  assert.equal(await ruleOn(ExecPolicy.empty(), ["ls"]), null);
});

void test("broken rules files fail with file, line and what is wrong", () => {
  const cases: Array<[string, RegExp]> = [
    ['prefix_rule(\n  pattern = ["git"],\n  decision = "maybe",\n)\n', /^r\.rules:1:1: invalid decision: maybe/],
    ['prefix_rule(pattern = [])\n', /^r\.rules:1:1: invalid pattern element: pattern cannot be empty/],
    ['prefix_rule(pattern = ["git"], match = ["ls"])\n', /^r\.rules:1:1: match example "ls" does not match this rule/],
    ['prefix_rule(pattern = ["git"], not_match = ["git x"])\n', /not_match example "git x" matches this rule/],
    ['prefix_rule(pattern = ["git"]\n', /^r\.rules:2:1: expected '\)', found the end of the file/],
    ["x = 1\n", /^r\.rules:1:1: only calls such as prefix_rule\(\.\.\.\) are allowed/],
    ['\n\nallow_rule(pattern = ["a"])', /^r\.rules:3:1: unknown rule allow_rule\(\)/],
    ['prefix_rule(pattern = ["a"], colour = "red")', /has no argument colour/],
    ['prefix_rule(pattern = ["a], decision = "allow")', /unterminated string/],
  ];
  for (const [text, expected] of cases) {
    assert.throws(
      () => policy().addFile("r.rules", text),
      (err: unknown) => err instanceof RulesError && expected.test(err.message),
      text,
    );
  }
});

void test("string examples split like a shell would", () => {
  assert.deepEqual(splitShellWords(`gh pr view 7888 --json "title,body" 'a b' c\\ d`), ["gh", "pr", "view", "7888", "--json", "title,body", "a b", "c d"]);
  assert.equal(splitShellWords('echo "unclosed'), null);
});

void test("an approved prefix is appended to default.rules once and allowed at once", () => {
  const home = mkdtempSync(join(tmpdir(), "codex-ts-rules-"));
  const p = ExecPolicy.empty();
  persistAmendment(home, p, ["npm", "test"]);
  persistAmendment(home, p, ["npm", "test"]);
  const file = join(home, "rules", "default.rules");
  assert.equal(readFileSync(file, "utf8"), 'prefix_rule(pattern=["npm","test"], decision="allow")\n');
  assert.equal(p.evaluate(["npm", "test", "--watch"]).decision, "allow");
  // The file it wrote reads back as the same rule.
  assert.equal(ExecPolicy.loadFolders([join(home, "rules")]).evaluate(["npm", "test"]).decision, "allow");
  writeFileSync(file, "prefix_rule(pattern=['x'])");
  persistAmendment(home, p, ["make"]);
  assert.equal(readFileSync(file, "utf8"), "prefix_rule(pattern=['x'])\nprefix_rule(pattern=[\"make\"], decision=\"allow\")\n");
});
