/**
 * Who a front end is to the provider and in the session files: session_meta's `source`, the
 * `originator` header, the User-Agent product, and whether `CODEX_API_KEY` is read (the reference
 * reads it in exec only). One preset per front end, so none spells these out by hand.
 */
import { DEFAULT_TRUST_ADVICE } from "../hooks/registry.js";

export interface FrontEndIdentity {
  /** session_meta's `source`, as the reference names it. */
  source: string;
  /** Sent as `originator` unless CODEX_INTERNAL_ORIGINATOR_OVERRIDE says otherwise. */
  originator: string;
  /** The product in the User-Agent header. */
  userAgentProduct: string;
  readCodexApiKey: boolean;
  /** How this front end's user trusts new or changed hooks, for the warning that some wait for it. */
  hookTrustAdvice: string;
}



export type FrontEndName = "exec" | "tui" | "mcp" | "app-server" | "acp";

export const IDENTITIES: Readonly<Record<FrontEndName, FrontEndIdentity>> = {
  exec: { source: "exec", originator: "codex_exec", userAgentProduct: "codex_exec", readCodexApiKey: true, hookTrustAdvice: `${DEFAULT_TRUST_ADVICE}, or run with --dangerously-bypass-hook-trust to run them without review` },
  tui: { source: "cli", originator: "codex_cli_rs", userAgentProduct: "codex_cli_rs", readCodexApiKey: false, hookTrustAdvice: "/hooks reviews and trusts them; --dangerously-bypass-hook-trust runs hooks without review" },
  mcp: { source: "mcp", originator: "codex_cli_rs", userAgentProduct: "codex_cli_rs", readCodexApiKey: false, hookTrustAdvice: DEFAULT_TRUST_ADVICE },
  // The reference records IDE clients as `vscode` and names the client (its `clientInfo.name`) as
  // the originator; these are the defaults until a client says who it is.
  "app-server": { source: "vscode", originator: "codex_app_server", userAgentProduct: "codex_app_server", readCodexApiKey: false, hookTrustAdvice: `your client can list them (hooks/list) and trust them (config/batchWrite of hooks.state), or ${DEFAULT_TRUST_ADVICE}` },
  // An editor over ACP is an IDE client too; `vscode` is the source the reference's readers know for those.
  acp: { source: "vscode", originator: "codex_acp", userAgentProduct: "codex_acp", readCodexApiKey: false, hookTrustAdvice: DEFAULT_TRUST_ADVICE },
};
