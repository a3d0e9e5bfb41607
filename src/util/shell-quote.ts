/** Joins argv into one line a POSIX shell would split back the same way, for display. */
const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

export function shellJoin(argv: readonly string[]): string {
  return argv.map((arg) => (arg !== "" && SAFE.test(arg) ? arg : `'${arg.replace(/'/g, `'"'"'`)}'`)).join(" ");
}
