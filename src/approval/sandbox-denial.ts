/**
 * Guessing whether a sandboxed command failed because of the sandbox. A failed command is not
 * necessarily a denial (grep finding nothing exits 1), so only failures whose output mentions
 * what sandbox refusals print are offered a retry outside the sandbox.
 */
const DENIAL_HINTS = [
  "operation not permitted",
  "permission denied",
  "read-only file system",
  "seccomp",
  "sandbox",
  "landlock",
  "failed to write file",
  "network is unreachable",
  "temporary failure in name resolution",
  "could not resolve host",
];

export function looksLikeSandboxDenial(result: { exitCode: number; timedOut: boolean; output: string }): boolean {
  if (result.exitCode === 0 || result.timedOut) return false;
  const text = result.output.toLowerCase();
  return DENIAL_HINTS.some((hint) => text.includes(hint));
}
