// Prints the built script's size, raw and gzipped, and fails the build past the 3 kB budget.
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const budget = 3 * 1024;
const file = new URL("../dist/kpi-id-signin.js", import.meta.url);
const source = readFileSync(file);
const gzipped = gzipSync(source, { level: 9 }).length;
console.log(`kpi-id-signin.js: ${source.length} B, ${gzipped} B gzipped (budget ${budget} B)`);
if (gzipped > budget) {
  console.error("kpi-id-signin.js is over its gzipped size budget");
  process.exit(1);
}
