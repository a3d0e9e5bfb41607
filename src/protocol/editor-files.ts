/**
 * Files as an editor holds them. A front end inside an editor (the ACP server) can offer the
 * editor's view of the files: reading one gives its open buffer, unsaved changes included, and
 * writing one goes through the editor, which updates the buffer and saves it. The agent's own
 * file edits (apply_patch) then see and keep what the user is typing. Each method is present only
 * when the editor offers it; without them the agent reads and writes the disk.
 */
export interface EditorFiles {
  /** The file's text as the editor has it (its buffer when open); rejects when the editor cannot read it. */
  readTextFile?(path: string): Promise<string>;
  /** Replaces the file's text through the editor; rejects when the editor refuses or fails. */
  writeTextFile?(path: string, text: string): Promise<void>;
}
