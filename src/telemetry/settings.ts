/**
 * `[otel]` from config.toml, in the reference's shape:
 *
 *   environment = "dev"                 # resource attribute `env`
 *   exporter = "none"                   # or { otlp-http = { endpoint, protocol, headers } }
 *                                       # or { otlp-grpc = { endpoint, headers } }
 *   log_user_prompt = false             # prompt text is "[REDACTED]" unless true
 *
 * `${VAR}` in a header value is replaced by that environment variable.
 */
export type OtelExporter =
  | { kind: "none" }
  | { kind: "otlp-http"; endpoint: string; protocol: "binary" | "json"; headers: Record<string, string> }
  | { kind: "otlp-grpc"; endpoint: string; headers: Record<string, string> };

export interface OtelSettings {
  environment: string;
  exporter: OtelExporter;
  logUserPrompt: boolean;
}

export const DEFAULT_OTEL_SETTINGS: OtelSettings = { environment: "dev", exporter: { kind: "none" }, logUserPrompt: false };

type Table = Record<string, unknown>;
const isTable = (v: unknown): v is Table => typeof v === "object" && v !== null && !Array.isArray(v);

/** What is wrong with an `[otel] exporter` value, or null when it is one of the accepted shapes. */
export function exporterProblem(value: unknown): string | null {
  if (value === "none") return null;
  if (typeof value === "string") return `unknown exporter "${value}"; expected "none", { otlp-http = { … } } or { otlp-grpc = { … } }`;
  if (!isTable(value)) return 'expected "none" or a table with otlp-http or otlp-grpc';
  const kinds = Object.keys(value);
  if (kinds.length !== 1 || (kinds[0] !== "otlp-http" && kinds[0] !== "otlp-grpc")) {
    return `expected exactly one of otlp-http or otlp-grpc, found ${kinds.length === 0 ? "none" : kinds.join(", ")}`;
  }
  const kind = kinds[0];
  const body = value[kind];
  if (!isTable(body)) return `${kind}: expected a table with endpoint`;
  if (typeof body.endpoint !== "string" || body.endpoint === "") return `${kind}.endpoint: expected a URL string`;
  if (kind === "otlp-http" && body.protocol !== undefined && body.protocol !== "binary" && body.protocol !== "json") {
    return `${kind}.protocol: expected "binary" or "json"`;
  }
  if (body.headers !== undefined && (!isTable(body.headers) || Object.values(body.headers).some((v) => typeof v !== "string"))) {
    return `${kind}.headers: expected a table of strings`;
  }
  const known = kind === "otlp-http" ? ["endpoint", "protocol", "headers"] : ["endpoint", "headers"];
  const unknown = Object.keys(body).filter((k) => !known.includes(k));
  return unknown.length > 0 ? `${kind}: unknown key ${unknown.join(", ")}` : null;
}

/** The settings from a validated `[otel]` table. */
export function otelSettingsFrom(table: Table | undefined, env: NodeJS.ProcessEnv): OtelSettings {
  if (!table) return DEFAULT_OTEL_SETTINGS;
  const environment = typeof table.environment === "string" ? table.environment : DEFAULT_OTEL_SETTINGS.environment;
  const logUserPrompt = table.log_user_prompt === true;
  return { environment, logUserPrompt, exporter: exporterFrom(table.exporter, env) };
}

function exporterFrom(value: unknown, env: NodeJS.ProcessEnv): OtelExporter {
  if (!isTable(value)) return { kind: "none" };
  const http = value["otlp-http"];
  const grpc = value["otlp-grpc"];
  const body = isTable(http) ? http : isTable(grpc) ? grpc : null;
  if (!body || typeof body.endpoint !== "string") return { kind: "none" };
  const headers = expandHeaders(isTable(body.headers) ? body.headers : {}, env);
  if (isTable(http)) return { kind: "otlp-http", endpoint: body.endpoint, protocol: body.protocol === "json" ? "json" : "binary", headers };
  return { kind: "otlp-grpc", endpoint: body.endpoint, headers };
}

/** `${VAR}` in header values, from the environment (an unset variable becomes empty). */
export function expandHeaders(headers: Table, env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (typeof value === "string") out[key] = value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => env[name] ?? "");
  }
  return out;
}
