import { randomBytes } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { firstLoadBudgetBytes, firstLoadReport } from "../scripts/first-load-report.ts";

interface FakeChunk {
  type: "chunk";
  code: string;
  imports: string[];
  isEntry: boolean;
  modules: Record<string, { renderedLength: number }>;
}

/** Code that gzip cannot shrink much: random bytes written out as base64. */
function incompressible(bytes: number): string {
  return randomBytes(bytes).toString("base64");
}

function chunk(code: string, imports: string[] = [], isEntry = false): FakeChunk {
  return {
    type: "chunk",
    code,
    imports,
    isEntry,
    modules: { "/x/node_modules/some-lib/index.js": { renderedLength: code.length } },
  };
}

/** Runs the plugin's generateBundle over a bundle; a build error comes back as a thrown Error. */
function checkBundle(bundle: Record<string, FakeChunk>) {
  const plugin = firstLoadReport();
  const error = (message: string) => {
    throw new Error(message);
  };
  const generateBundle = plugin.generateBundle as (
    this: { error: typeof error },
    options: object,
    output: object,
  ) => void;
  generateBundle.call({ error }, {}, bundle);
}

describe("the first-load budget", () => {
  it("is 110 kB gzipped", () => {
    expect(firstLoadBudgetBytes).toBe(110 * 1024);
  });

  it("lets a build through whose entry and its static imports fit, however large its lazy pages are", () => {
    vi.spyOn(console, "log").mockImplementation(() => undefined);
    const bundle = {
      "index.js": chunk(`import "./vendor.js";${incompressible(30_000)}`, ["vendor.js"], true),
      "vendor.js": chunk(incompressible(30_000)),
      // Reached only through import(): not part of the first load.
      "wizard.js": chunk(incompressible(200_000)),
    };
    expect(() => checkBundle(bundle)).not.toThrow();
  });

  it("fails the build when the entry and its static imports pass the budget, naming the size", () => {
    vi.spyOn(console, "log").mockImplementation(() => undefined);
    const bundle = {
      "index.js": chunk(incompressible(60_000), ["vendor.js"], true),
      "vendor.js": chunk(incompressible(60_000)),
    };
    expect(() => checkBundle(bundle)).toThrow(
      /first-load JavaScript is 1\d\d\.\d kB gzipped, over its 110\.0 kB budget/,
    );
  });
});
