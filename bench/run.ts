// npm run bench [-- NAME]: runs every bench/*.bench.ts (or those whose file name contains NAME)
// and prints each figure beside the baseline measured in the same run.
import { readdirSync } from "node:fs";
import { availableParallelism } from "node:os";
import type { BenchModule, Comparison, Measurement } from "./lib/types.ts";

const directory = new URL("./", import.meta.url);
const filter = process.argv[2];

function format(measurement: Measurement): string {
  const value = measurement.value >= 100 ? measurement.value.toFixed(0) : measurement.value.toFixed(1);
  return `${measurement.label.padEnd(62)} ${value.padStart(9)} ${measurement.unit}`;
}

function print(comparison: Comparison): void {
  console.log(`  ${format(comparison.subject)}`);
  console.log(`  ${format(comparison.baseline)}`);
  const ratio = comparison.subject.value / comparison.baseline.value;
  console.log(`  ${"ratio".padEnd(62)} ${ratio.toFixed(2).padStart(9)} ×   (${comparison.method})\n`);
}

const files = readdirSync(directory)
  .filter((file) => file.endsWith(".bench.ts") && (!filter || file.includes(filter)))
  .sort();
if (files.length === 0) {
  console.error(`no benchmark matches '${filter}'`);
  process.exit(2);
}

console.log(`KPI ID benchmarks: node ${process.version}, ${availableParallelism()} cores available\n`);
for (const file of files) {
  const module = (await import(new URL(file, directory).href)) as BenchModule;
  console.log(`${module.title}  (bench/${file})`);
  for (const comparison of await module.run()) print(comparison);
}
