import { chmodSync, lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** Every path under `root` (itself included) whose mode is not 0700 for a folder or 0600 for a file. */
export function exposedPaths(root: string): string[] {
  const exposed: string[] = [];
  const visit = (path: string) => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return;
    const wanted = stat.isDirectory() ? 0o700 : 0o600;
    if ((stat.mode & 0o777) !== wanted) exposed.push(`${(stat.mode & 0o777).toString(8)} ${path}`);
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(root);
  return exposed;
}

/** What an old install or a careless copy leaves: folders 0755, files 0666. */
export function loosen(root: string): void {
  const visit = (path: string) => {
    const stat = lstatSync(path);
    chmodSync(path, stat.isDirectory() ? 0o755 : 0o666);
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(root);
}
