import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const root = new URL("../../../", import.meta.url);
const doc = readFileSync(new URL("docs/openid-connect.md", root), "utf8");
const conformance = doc.slice(doc.indexOf("## Conformance"), doc.indexOf("## For operators"));
const tableRows = conformance.split("\n").filter((line) => line.startsWith("| `"));

/** Where a test file the conformance table names lives. */
function pathOf(file: string): URL {
  return new URL(file.endsWith(".spec.ts") ? `e2e/specs/${file}` : `apps/server/test/${file}`, root);
}

describe("docs/openid-connect.md conformance table", () => {
  it("names only test files that exist, and each quoted test title is in one of them", () => {
    const files = [...new Set([...conformance.matchAll(/`([\w.-]+\.(?:test|spec)\.ts)`/g)].map((m) => m[1] ?? ""))];
    expect(files.filter((file) => !existsSync(pathOf(file)))).toEqual([]);
    const sources = files.map((file) => readFileSync(pathOf(file), "utf8")).join("\n");
    const shorthand = ["oidc-conformance-requests.test.ts", "oidc-conformance.test.ts", "oidc-sessions.test.ts"]
      .map((file) => readFileSync(pathOf(file), "utf8"))
      .join("\n");
    const titles = tableRows.flatMap((row) =>
      [...row.replaceAll(/`[^`]*`/g, "").matchAll(/"([^"…]+)…?"/g)].map((m) => m[1] ?? ""),
    );
    expect(titles.length).toBeGreaterThan(20);
    const all = `${sources}\n${shorthand}`;
    expect(titles.filter((title) => !all.includes(title))).toEqual([]);
  });

  it("maps the modules the issue names, and at least one of each of the five plans", () => {
    for (const module of [
      "oidcc-server",
      "oidcc-prompt-login",
      "oidcc-max-age-1",
      "oidcc-codereuse",
      "oidcc-refresh-token",
      "oidcc-discovery-endpoint-verification",
      "oidcc-rp-initiated-logout-no-state",
      "oidcc-backchannel-rp-initiated-logout",
    ])
      expect(doc).toContain(`\`${module}\``);
  });
});
