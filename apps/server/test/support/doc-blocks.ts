import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));

/** The first ```language block after `heading` in a file of docs/, as an operator would copy it. */
export function documentedBlock(docFile: string, heading: string, language: string): string {
  const doc = readFileSync(`${repoRoot}docs/${docFile}`, "utf8");
  const at = doc.indexOf(heading);
  if (at < 0) throw new Error(`docs/${docFile} has no heading '${heading}'`);
  const match = new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``).exec(doc.slice(at));
  if (!match?.[1]) throw new Error(`docs/${docFile} has no ${language} block under '${heading}'`);
  return match[1];
}

/** Replaces a value the block must contain, so a doc that drops it fails here instead of testing something else. */
export function replaceEvery(block: string, written: string, replacement: string): string {
  if (!block.includes(written)) throw new Error(`the documented block no longer contains ${written}`);
  return block.replaceAll(written, replacement);
}

/** Words of one shell line: blanks split them, double quotes keep them together. */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2] ?? "");
}

/** The `npx kpi-id …` commands of a ```sh block, each as its arguments (continued lines joined). */
export function kpiIdCommands(block: string): string[][] {
  return block
    .replace(/\\\n\s*/g, " ")
    .split("\n")
    .map((line) => words(line.trim()))
    .filter((line) => line[0] === "npx" && line[1] === "kpi-id")
    .map((line) => line.slice(2));
}
