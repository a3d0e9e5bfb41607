/**
 * `codex-ts acp`: codex-ts as an Agent Client Protocol (v1) agent, for editors that run agents
 * as subprocesses over stdio (Zed, JetBrains IDEs, Neovim plugins…). Built on the ACP SDK's agent
 * app; every session is a thread of the front-end host (the `acp` identity), so sessions are
 * recorded like any other and `session/load` continues one by its id (the thread id), in this
 * process or a later one, replaying its conversation first.
 *
 * Served: initialize (protocol version 1, loadSession, image and embedded-context prompts, HTTP
 * MCP servers, two auth methods and, for a client that runs terminals, a terminal sign-in),
 * authenticate, session/new, session/load, session/list,
 * session/close, session/prompt, session/cancel, session/set_mode, session/set_config_option
 * (mode, model, reasoning effort), and `session/set_model` for clients that still send it.
 */
import { agent, PROTOCOL_VERSION, RequestError, type AgentApp, type AgentContext, type ClientCapabilities, type McpServer } from "@agentclientprotocol/sdk";
import { statSync } from "node:fs";
import { isAbsolute } from "node:path";
import { loadConfig, type Config } from "../config/load-config.js";
import { loginPolicyFrom, NO_LOGIN_POLICY } from "../auth/resolve-auth.js";
import { FrontEndHost, HostStartError } from "../host/front-end-host.js";
import { errorMessage } from "../util/errors.js";
import { packageVersion } from "../util/version.js";
import { AcpSession } from "./acp-session.js";
import { authenticate, authMethodsFor } from "./auth.js";
import { editorFilesOf } from "./editor-files.js";
import { joinEditorServers } from "./mcp-servers.js";
import { listSessions } from "./session-list.js";
import { codexHome } from "../config/codex-home.js";

/** What `codex-ts acp` was started with (its command line), applied to every session. */
export interface AcpOptions {
  env: NodeJS.ProcessEnv;
  /** `-c key=value` overrides. */
  overrides: string[];
  profile?: string;
  model?: string;
  /** Diagnostics for the editor's agent log (stderr): stdout carries the protocol. */
  log(message: string): void;
}

/** One client connection's agent: its capabilities, its host and its sessions. */
export function createAcpAgent(options: AcpOptions): { app: AgentApp; shutdown(): Promise<string[]> } {
  const host = new FrontEndHost("acp", options.env);
  const sessions = new Map<string, AcpSession>();
  let capabilities: ClientCapabilities = {};

  const sessionOf = (sessionId: string): AcpSession => {
    const session = sessions.get(sessionId);
    if (!session) throw RequestError.sessionNotFound(sessionId);
    return session;
  };

  /** A new thread, or a recorded one resumed, in `cwd` with the editor's MCP servers joined. */
  const open = async (client: AgentContext, cwd: string, mcpServers: readonly McpServer[], resumeId: string | null): Promise<AcpSession> => {
    const config = sessionConfig(cwd, mcpServers, options);
    let threadId = "";
    let opened: AcpSession | null = null;
    const editorFiles = editorFilesOf(client, capabilities, { sessionId: () => threadId, settled: async () => opened?.settled() });
    try {
      host.checkCredentials(config);
    } catch (err) {
      if (err instanceof HostStartError) throw RequestError.authRequired(undefined, err.message);
      throw err;
    }
    if (resumeId !== null && sessions.has(resumeId)) {
      // Loaded again: the recorded thread is read afresh, so the replay is the whole conversation.
      sessions.delete(resumeId);
      await host.close(resumeId);
    }
    let thread;
    try {
      thread = await host.open({
        config,
        ...(resumeId !== null ? { target: { kind: "resume", sessionId: resumeId, last: false, all: true } } : {}),
        ...(editorFiles ? { editorFiles } : {}),
      });
      await host.ready(thread);
    } catch (err) {
      if (err instanceof HostStartError && err.kind === "thread_not_found" && resumeId !== null) throw RequestError.sessionNotFound(resumeId);
      throw new RequestError(-32603, errorMessage(err));
    }
    threadId = thread.threadId;
    for (const notice of thread.notices) options.log(notice);
    const meta = capabilities._meta ?? {};
    const session = new AcpSession(
      thread,
      {
        client,
        terminalOutput: meta.terminal_output === true,
        notices: capabilities.session?.notices != null,
        forms: capabilities.elicitation?.form != null,
        log: options.log,
      },
      config.sandboxPolicy.type === "workspace-write" ? config.sandboxPolicy : null,
    );
    opened = session;
    sessions.set(thread.threadId, session);
    await session.start();
    return session;
  };

  const app = agent({ name: "codex-ts" })
    .onRequest("initialize", ({ params }) => {
      capabilities = params.clientCapabilities ?? {};
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, audio: false, embeddedContext: true },
          mcpCapabilities: { http: true, sse: false },
          sessionCapabilities: { list: {}, close: {} },
        },
        authMethods: authMethodsFor(capabilities),
        agentInfo: { name: "codex-ts", title: "codex-ts", version: packageVersion() },
      };
    })
    .onRequest("authenticate", async ({ params }) => {
      await authenticate(params, { env: options.env, policy: loginPolicy(options), say: options.log });
      return {};
    })
    .onRequest("session/new", async ({ params, client }) => {
      const session = await open(client, checkedCwd(params.cwd), params.mcpServers, null);
      // After the answer, which tells the editor the session's id.
      setImmediate(() => session.announceCommands());
      return { sessionId: session.sessionId, modes: session.modes, configOptions: session.configOptions };
    })
    .onRequest("session/load", async ({ params, client }) => {
      const session = await open(client, checkedCwd(params.cwd), params.mcpServers, params.sessionId);
      setImmediate(() => session.announceCommands());
      return { modes: session.modes, configOptions: session.configOptions };
    })
    .onRequest("session/list", ({ params }) => listSessions(codexHome(options.env), params.cwd ?? null, params.cursor ?? null))
    .onRequest("session/close", async ({ params }) => {
      // Its thread ends (commands, MCP servers); it stays recorded, and session/load brings it back.
      sessionOf(params.sessionId);
      sessions.delete(params.sessionId);
      await host.close(params.sessionId);
      return {};
    })
    .onRequest("session/prompt", async ({ params, signal }) => ({ stopReason: await sessionOf(params.sessionId).prompt(params.prompt, signal) }))
    .onNotification("session/cancel", ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    })
    .onRequest("session/set_mode", async ({ params }) => {
      await sessionOf(params.sessionId).setMode(params.modeId);
      return {};
    })
    .onRequest("session/set_config_option", async ({ params }) => {
      if (!("value" in params) || typeof params.value !== "string") throw RequestError.invalidParams(params, "every config option takes one of its values (a string)");
      return { configOptions: await sessionOf(params.sessionId).setConfigOption(params.configId, params.value) };
    })
    // The model picker of clients from before config options: `{sessionId, modelId}`.
    .onRequest("session/set_model", parseSetModel, async ({ params }) => {
      await sessionOf(params.sessionId).setModel(params.modelId);
      return {};
    });

  return {
    app,
    shutdown: async () => {
      sessions.clear();
      return host.shutdown();
    },
  };
}

/** The config a session runs with: the folder's config layers, the command line's, the editor's MCP servers. */
function sessionConfig(cwd: string, mcpServers: readonly McpServer[], options: AcpOptions): Config {
  let config: Config;
  try {
    config = loadConfig({
      cwd,
      overrides: options.overrides,
      env: options.env,
      ...(options.profile !== undefined ? { profile: options.profile } : {}),
      ...(options.model !== undefined ? { model: options.model } : {}),
    });
  } catch (err) {
    throw new RequestError(-32603, errorMessage(err));
  }
  const joined = joinEditorServers(config.mcpServers, mcpServers);
  for (const line of joined.skipped) options.log(line);
  return { ...config, mcpServers: joined.servers };
}

function checkedCwd(cwd: string): string {
  if (!isAbsolute(cwd)) throw RequestError.invalidParams({ cwd }, `cwd must be an absolute path, not '${cwd}'`);
  let folder = false;
  try {
    folder = statSync(cwd).isDirectory();
  } catch {
    // Reported below.
  }
  if (!folder) throw RequestError.invalidParams({ cwd }, `cwd '${cwd}' is not a folder`);
  return cwd;
}

function loginPolicy(options: AcpOptions): ReturnType<typeof loginPolicyFrom> {
  try {
    return loginPolicyFrom(loadConfig({ cwd: process.cwd(), overrides: options.overrides, env: options.env }).toml);
  } catch {
    return NO_LOGIN_POLICY;
  }
}

function parseSetModel(params: unknown): { sessionId: string; modelId: string } {
  const p = (typeof params === "object" && params !== null ? params : {}) as Record<string, unknown>;
  if (typeof p.sessionId !== "string" || typeof p.modelId !== "string") throw RequestError.invalidParams(params, "session/set_model takes {sessionId, modelId}");
  return { sessionId: p.sessionId, modelId: p.modelId };
}
