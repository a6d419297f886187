import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = new URL("../../../../../", import.meta.url);
const doc = readFileSync(new URL("docs/openid-connect.md", root), "utf8");
const conformance = doc.slice(doc.indexOf("## Conformance"), doc.indexOf("## For operators"));
const tableRows = conformance.split("\n").filter((line) => line.startsWith("| `"));

/**
 * The modules of each plan, by the names the conformance suite gives them (its test plan classes,
 * e.g. OIDCCBasicTestPlan); the Form Post OP plan runs the Basic modules with response_mode=form_post.
 */
const basic = [
  "oidcc-server",
  "oidcc-response-type-missing",
  "oidcc-idtoken-signature",
  "oidcc-idtoken-unsigned",
  "oidcc-userinfo-get",
  "oidcc-userinfo-post-header",
  "oidcc-userinfo-post-body",
  "oidcc-ensure-request-without-nonce-succeeds-for-code-flow",
  "oidcc-scope-profile",
  "oidcc-scope-email",
  "oidcc-scope-address",
  "oidcc-scope-phone",
  "oidcc-scope-all",
  "oidcc-alternate-happy-flow",
  "oidcc-ensure-other-scope-order-succeeds",
  "oidcc-display-page",
  "oidcc-display-popup",
  "oidcc-prompt-login",
  "oidcc-prompt-none-not-logged-in",
  "oidcc-prompt-none-logged-in",
  "oidcc-max-age-1",
  "oidcc-max-age-10000",
  "oidcc-ensure-request-with-unknown-parameter-succeeds",
  "oidcc-id-token-hint",
  "oidcc-login-hint",
  "oidcc-ui-locales",
  "oidcc-claims-locales",
  "oidcc-ensure-request-with-acr-values-succeeds",
  "oidcc-codereuse",
  "oidcc-codereuse-30seconds",
  "oidcc-ensure-registered-redirect-uri",
  "oidcc-ensure-post-request-succeeds",
  "oidcc-server-client-secret-post",
  "oidcc-request-uri-unsigned-supported-correctly-or-rejected-as-unsupported",
  "oidcc-unsigned-request-object-supported-correctly-or-rejected-as-unsupported",
  "oidcc-claims-essential",
  "oidcc-ensure-request-object-with-redirect-uri",
  "oidcc-refresh-token",
  "oidcc-ensure-request-with-valid-pkce-succeeds",
];
const planModules: Record<string, string[]> = {
  "oidcc-basic-certification-test-plan": basic,
  "oidcc-formpost-basic-certification-test-plan": basic,
  "oidcc-config-certification-test-plan": ["oidcc-discovery-endpoint-verification"],
  "oidcc-rp-initiated-logout-certification-test-plan": [
    "oidcc-rp-initiated-logout-discovery-endpoint-verification",
    "oidcc-rp-initiated-logout",
    "oidcc-rp-initiated-logout-bad-post-logout-redirect-uri",
    "oidcc-rp-initiated-logout-query-added-to-post-logout-redirect-uri",
    "oidcc-rp-initiated-logout-modified-id-token-hint",
    "oidcc-rp-initiated-logout-bad-id-token-hint",
    "oidcc-rp-initiated-logout-no-id-token-hint",
    "oidcc-rp-initiated-logout-no-params",
    "oidcc-rp-initiated-logout-no-post-logout-redirect-uri",
    "oidcc-rp-initiated-logout-no-state",
    "oidcc-rp-initiated-logout-only-state",
  ],
  "oidcc-backchannel-rp-initiated-logout-certification-test-plan": [
    "oidcc-backchannel-logout-discovery-endpoint-verification",
    "oidcc-backchannel-rp-initiated-logout",
  ],
};

/** Where a test file the conformance table names lives: the server's tests sit in a tree, named once each. */
function pathOf(file: string): URL {
  if (file.endsWith(".spec.ts")) return new URL(`e2e/specs/${file}`, root);
  const serverTests = fileURLToPath(new URL("apps/server/test/", root));
  const found = readdirSync(serverTests, { recursive: true, encoding: "utf8" }).find(
    (path) => path === file || path.endsWith(`/${file}`),
  );
  return new URL(`apps/server/test/${found ?? file}`, root);
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

  it("maps every module of the five plans, as the OpenID Foundation's suite names them, to tests or a reason", () => {
    const mapped = tableRows.join("\n");
    for (const [plan, modules] of Object.entries(planModules)) {
      expect(conformance, plan).toContain(`\`${plan}\``);
      expect(
        modules.filter((module) => !mapped.includes(`\`${module}\``)),
        plan,
      ).toEqual([]);
    }
    // Each row says what covers it: a test file or a quoted test, or why it does not apply.
    const bare = tableRows.filter((row) => !/\.(test|spec)\.ts`|"[^"]+"|not applicable/.test(row));
    expect(bare).toEqual([]);
  });
});
