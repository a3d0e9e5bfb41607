/**
 * What `codex-ts doctor` reports: checks, each ok / warning / fail with a summary, details and,
 * when not ok, the fix. The JSON form has the reference's shape (`schemaVersion`, `generatedAt`,
 * `overallStatus`, the version, `checks` by id with `category`, `status`, `summary`, `details`,
 * `remediation`, `durationMs`); the human form groups checks by section.
 */
export type CheckStatus = "ok" | "warning" | "fail";

export interface Check {
  id: string;
  category: string;
  status: CheckStatus;
  summary: string;
  details: Record<string, string>;
  /** What to do about it; null when the check is ok. */
  remediation: string | null;
  durationMs: number;
}

/** A check's outcome before it is timed and named. */
export type Finding = Omit<Check, "id" | "category" | "durationMs">;

export const ok = (summary: string, details: Record<string, string> = {}): Finding => ({ status: "ok", summary, details, remediation: null });
export const warning = (summary: string, remediation: string, details: Record<string, string> = {}): Finding => ({ status: "warning", summary, details, remediation });
export const fail = (summary: string, remediation: string, details: Record<string, string> = {}): Finding => ({ status: "fail", summary, details, remediation });

export interface DoctorReport {
  schemaVersion: 1;
  generatedAt: string;
  overallStatus: CheckStatus;
  codexVersion: string;
  checks: Record<string, Check>;
}

export function buildReport(checks: Check[], version: string, now = new Date()): DoctorReport {
  const overallStatus: CheckStatus = checks.some((c) => c.status === "fail") ? "fail" : checks.some((c) => c.status === "warning") ? "warning" : "ok";
  const byId: Record<string, Check> = {};
  for (const check of checks) byId[check.id] = check;
  return { schemaVersion: 1, generatedAt: now.toISOString(), overallStatus, codexVersion: version, checks: byId };
}

/** Sections in the order the human report shows them. */
const SECTIONS: Array<{ title: string; categories: string[] }> = [
  { title: "Environment", categories: ["runtime", "disk", "git", "shell"] },
  { title: "Configuration", categories: ["config", "rules", "auth", "mcp"] },
  { title: "Sandbox", categories: ["sandbox"] },
  { title: "Connectivity", categories: ["reachability"] },
];

const MARK: Record<CheckStatus, string> = { ok: "✓", warning: "⚠", fail: "✗" };
const ASCII_MARK: Record<CheckStatus, string> = { ok: "ok", warning: "warn", fail: "FAIL" };

export function renderReport(report: DoctorReport, opts: { ascii: boolean; platform: string }): string {
  const mark = opts.ascii ? ASCII_MARK : MARK;
  const lines = [`codex-ts doctor v${report.codexVersion} · ${opts.platform}`, ""];
  const checks = Object.values(report.checks);
  // The category names a check, unless several share it (sandbox): then the rest of its id does.
  const shared = (c: Check): boolean => checks.filter((o) => o.category === c.category).length > 1;
  const label = (c: Check): string => (shared(c) ? (c.id.split(".")[1] ?? c.id).replace(/_/g, " ") : c.category);
  const width = Math.max(...checks.map((c) => label(c).length)) + 2;
  const keyWidth = Math.max(0, ...checks.flatMap((c) => Object.keys(c.details).map((k) => k.length))) + 2;
  for (const section of SECTIONS) {
    const inSection = checks.filter((c) => section.categories.includes(c.category));
    if (inSection.length === 0) continue;
    lines.push(section.title);
    for (const c of inSection) {
      lines.push(`  ${mark[c.status].padEnd(opts.ascii ? 4 : 1)} ${label(c).padEnd(width)}${c.summary}`);
      for (const [key, value] of Object.entries(c.details)) lines.push(`      ${key.padEnd(keyWidth)}${value}`);
      if (c.remediation !== null) lines.push(`      fix: ${c.remediation}`);
    }
    lines.push("");
  }
  const count = (s: CheckStatus): number => checks.filter((c) => c.status === s).length;
  lines.push(`${count("ok")} ok · ${count("warning")} warning · ${count("fail")} failed`);
  return `${lines.join("\n")}\n`;
}
