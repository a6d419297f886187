// The files the source rules read: the server's sources and migrations, its tests, docs/architecture.md and the README.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { SourceFile } from "./source-rules.ts";

const folders = ["apps/server/src", "apps/server/test"];
const extensions = /\.(ts|sql)$/;

function walk(root: string, folder: string, into: SourceFile[]): void {
  for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules" && !entry.name.startsWith(".")) walk(root, path, into);
    } else if (extensions.test(entry.name)) {
      into.push({ path, text: readFileSync(join(root, path), "utf8") });
    }
  }
}

export function readSources(root: string): SourceFile[] {
  const files: SourceFile[] = [];
  for (const folder of folders) if (existsSync(join(root, folder))) walk(root, folder, files);
  for (const doc of ["docs/architecture.md", "README.md"]) {
    if (existsSync(join(root, doc))) files.push({ path: doc, text: readFileSync(join(root, doc), "utf8") });
  }
  return files.map((file) => ({ ...file, path: relative(".", file.path) }));
}
