/**
 * What we ask the model when we summarise a conversation ourselves (our own wording). The
 * summary replaces everything but the initial context, the user's recent messages and the
 * working-state note, so it must carry what those do not: what was done, what was found, what
 * is left.
 */

export const SUMMARIZATION_PROMPT = `You are about to run out of room in this conversation. Write a hand-over note for whoever continues the work (it may be you, with only this note and the user's messages to go on). Do not call any tools.

Cover, briefly and concretely:
- the task as the user asked for it, and any constraints or preferences they stated;
- what has been done so far, including which files were created or changed and how;
- what was learned along the way (commands that worked or failed, relevant facts about the code);
- what remains to be done, in order, and the very next step;
- open questions or risks.

Prefer exact names (paths, functions, commands, error messages) over description. Leave out anything already finished and irrelevant to what remains.`;

/**
 * The prompt of a local summary: `compact_prompt` from config when set (as the reference lets it
 * replace its own), else ours; the manual `compact` op's instruction of what to keep follows.
 */
export function summarizationPrompt(instructions: string | undefined, configured: string | null = null): string {
  const base = configured?.trim() ? configured : SUMMARIZATION_PROMPT;
  const extra = instructions?.trim();
  return extra ? `${base}\n\nThe user asked that the note keep in particular: ${extra}` : base;
}
