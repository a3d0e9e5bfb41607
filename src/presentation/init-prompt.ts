/** What `/init` sends, in every front end that offers it: ask the agent to write an AGENTS.md for this repository (our wording). */
export const INIT_PROMPT = [
  "Create an AGENTS.md file at the root of this repository for coding agents working here.",
  "Look at the code first, then describe briefly and concretely: the layout of the project, how to build it,",
  "how to run the tests and the linters, the code style and naming conventions it follows, and anything a",
  "newcomer would trip over. Keep it short (a page or so), use Markdown headings, and only write what you checked.",
].join(" ");
