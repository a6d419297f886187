// Builds docs/integration-manual/{uk,en}.md into the PDF the service serves at /integration_manual.pdf.
// Usage: node scripts/build-manual.ts [output] (default: apps/web/dist/integration_manual.pdf)
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildManualPdf } from "../manual/pdf.ts";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const output = resolve(process.argv[2] ?? `${root}apps/web/dist/integration_manual.pdf`);
const source = (lang: string) => readFileSync(`${root}docs/integration-manual/${lang}.md`, "utf8");

const pdf = await buildManualPdf(
  [
    { lang: "uk", markdown: source("uk") },
    { lang: "en", markdown: source("en") },
  ],
  "Посібник з інтеграції KPI ID / KPI ID integration manual",
);
mkdirSync(dirname(output), { recursive: true });
writeFileSync(output, pdf);
console.log(`integration_manual.pdf: ${pdf.length} B written to ${output}`);
