import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

// The web project shares one module graph per worker (vitest.config.ts). A module mock in that graph would reach the
// files that run after it in the worker, and a module imported earlier would keep the real one: so a file that mocks
// a module, or resets the graph, runs with modules of its own. Read from the file itself, not from a list kept by
// hand, so a new vi.mock cannot leak. A file whose module state is what it tests says so with the marker below.

/** What makes a test file run with Vitest's isolation. */
const freshModules = /\bvi\.(mock|doMock|unmock|doUnmock|resetModules)\(|vitest: fresh modules/;

export function needsFreshModules(source: string): boolean {
  return freshModules.test(source);
}

/** The test files under `dirs` (relative to `root`) that need modules of their own, as paths relative to `root`. */
export function filesNeedingFreshModules(root: string, dirs: string[]): string[] {
  return dirs
    .flatMap((dir) =>
      readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
        .filter((file) => /\.test\.tsx?$/.test(file))
        .map((file) => `${dir}/${file}`),
    )
    .filter((file) => needsFreshModules(readFileSync(join(root, file), "utf8")))
    .sort();
}
