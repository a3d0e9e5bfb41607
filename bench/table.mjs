/** Shared by the benchmarks: prints rows as a table, the first `left` columns left-aligned. */
export function printTable(rows, left = 1) {
  const widths = rows[0].map((_, col) => Math.max(...rows.map((row) => String(row[col] ?? "").length)));
  for (const row of rows) console.log(row.map((cell, col) => (col < left ? String(cell ?? "").padEnd(widths[col]) : String(cell ?? "").padStart(widths[col]))).join("   ").trimEnd());
}
