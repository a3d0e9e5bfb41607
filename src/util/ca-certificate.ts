/**
 * A custom certificate authority for every HTTPS connection codex-ts makes (the model client,
 * sign-in, token refresh), as corporate networks with a TLS-inspecting proxy need. The PEM bundle
 * named by CODEX_CA_CERTIFICATE (else SSL_CERT_FILE, as the reference falls back) is trusted in
 * addition to Node's built-in roots. The agent is built once per bundle path.
 */
import { readFileSync } from "node:fs";
import type { Agent } from "node:https";
import { errorMessage } from "./errors.js";

export const CA_CERTIFICATE_ENV_VAR = "CODEX_CA_CERTIFICATE";

const agents = new Map<string, Agent>();

/** The bundle's path and the variable that named it, or null when neither is set. */
export function customCaSource(env: NodeJS.ProcessEnv): { variable: string; path: string } | null {
  for (const variable of [CA_CERTIFICATE_ENV_VAR, "SSL_CERT_FILE"]) {
    const path = env[variable]?.trim();
    if (path) return { variable, path };
  }
  return null;
}

/**
 * The https.Agent that trusts the custom bundle, or undefined when none is configured (Node's
 * default agent then applies). Throws a message naming the variable and file when the bundle
 * cannot be read or holds no certificate, so a typo fails loudly instead of as a TLS error.
 */
export async function httpsAgentFor(env: NodeJS.ProcessEnv): Promise<Agent | undefined> {
  const source = customCaSource(env);
  if (!source) return undefined;
  const cached = agents.get(source.path);
  if (cached) return cached;
  let pem: string;
  try {
    pem = readFileSync(source.path, "utf8");
  } catch (err) {
    throw new Error(`${source.variable}: cannot read ${source.path}: ${errorMessage(err)}`);
  }
  const blocks = pem.match(/-----BEGIN (?:TRUSTED )?CERTIFICATE-----[\s\S]*?-----END (?:TRUSTED )?CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new Error(`${source.variable}: no certificates found in PEM file ${source.path} (CODEX_CA_CERTIFICATE, else SSL_CERT_FILE, names the bundle)`);
  const [{ Agent: HttpsAgent }, { rootCertificates }, { X509Certificate }] = await Promise.all([import("node:https"), import("node:tls"), import("node:crypto")]);
  for (const block of blocks) {
    try {
      // Parsed here so a damaged bundle is reported by name, not as a TLS failure later.
      new X509Certificate(block.replace(/TRUSTED CERTIFICATE/g, "CERTIFICATE"));
    } catch (err) {
      throw new Error(`${source.variable}: failed to parse PEM file ${source.path}: ${errorMessage(err)}`);
    }
  }
  const agent = new HttpsAgent({ ca: [...rootCertificates, pem] });
  agents.set(source.path, agent);
  return agent;
}
