/**
 * The editor's files, through the client's `fs/read_text_file` and `fs/write_text_file`, as far
 * as it offers them (its `fs` capabilities): patches then read open buffers with their unsaved
 * changes and write through the editor (patch/editor-files.ts keeps that all or nothing and inside
 * the places the sandbox allows).
 */
import type { AgentContext, ClientCapabilities } from "@agentclientprotocol/sdk";
import type { EditorFiles } from "../protocol/editor-files.js";

/** The session the files belong to, known only once its thread opened. */
export interface EditorFilesTarget {
  sessionId(): string;
  /**
   * Resolves once the session's updates so far went out, so the editor hears of an edit (its
   * tool call) before the write that makes it.
   */
  settled(): Promise<void>;
}

export function editorFilesOf(client: AgentContext, capabilities: ClientCapabilities, target: EditorFilesTarget): EditorFiles | undefined {
  const fs = capabilities.fs;
  if (!fs?.readTextFile && !fs?.writeTextFile) return undefined;
  return {
    ...(fs.readTextFile
      ? { readTextFile: async (path: string) => (await client.request("fs/read_text_file", { sessionId: target.sessionId(), path })).content }
      : {}),
    ...(fs.writeTextFile
      ? {
          writeTextFile: async (path: string, text: string) => {
            await target.settled();
            await client.request("fs/write_text_file", { sessionId: target.sessionId(), path, content: text });
          },
        }
      : {}),
  };
}
