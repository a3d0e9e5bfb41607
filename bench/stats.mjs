/** Shared by the benchmarks: the `--runs N` flag and the summary statistics they print. */

/** `--runs N` from argv, or `fallback`; exits with status 2 on a bad value. */
export function parseRuns(argv, fallback) {
  const i = argv.indexOf("--runs");
  if (i === -1) return fallback;
  const n = Number(argv[i + 1]);
  if (!Number.isInteger(n) || n < 1) {
    console.error("--runs needs a positive integer");
    process.exit(2);
  }
  return n;
}

/** Nearest-rank percentile of an unsorted list. */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
