/** Rewrites docs/config.md from the schema: `node dist/src/config/write-docs.js [file]` (run from the repository root). */
import { writeFileSync } from "node:fs";
import { renderConfigDocs } from "./docs.js";

const target = process.argv[2] ?? "docs/config.md";
writeFileSync(target, renderConfigDocs());
process.stdout.write(`wrote ${target}\n`);
