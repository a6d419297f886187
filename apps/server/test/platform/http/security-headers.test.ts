import helmet from "helmet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { headersOf } from "../../../src/platform/http/security.ts";
import type { TestApp } from "../../support/app.ts";
import { createTestApp } from "../../support/app.ts";

/**
 * The security headers are helmet's, worked out once at start-up (security.ts): every answer carries the same set,
 * as helmet's own middleware set them.
 */
describe("the security headers, worked out once", () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await createTestApp("pglite", {}, { protocols: [] });
  });
  afterAll(() => test?.close());

  it("are what helmet's middleware sets, policy first, and the same on every answer", async () => {
    const headers = headersOf(helmet({ frameguard: { action: "deny" }, strictTransportSecurity: false }));
    const names = headers.map(([name]) => name.toLowerCase());
    expect(names[0]).toBe("content-security-policy");
    expect(names).toEqual(expect.arrayContaining(["x-content-type-options", "x-frame-options", "referrer-policy"]));
    expect(names).not.toContain("strict-transport-security");
    expect(new Map(headers).get("X-Frame-Options")).toBe("DENY");

    const answers = await Promise.all([
      test.app.inject({ url: "/api/no-such-thing" }),
      test.app.inject({ url: "/ready" }),
    ]);
    for (const answer of answers) {
      expect(answer.headers["x-frame-options"]).toBe("DENY");
      expect(answer.headers["x-content-type-options"]).toBe("nosniff");
      expect(answer.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
      expect(answer.headers["cross-origin-opener-policy"]).toBe("same-origin");
      expect(answer.headers["content-security-policy"]).toContain("default-src 'self'");
      expect(answer.headers["strict-transport-security"]).toBeUndefined();
    }
    expect(answers[0]?.headers["content-security-policy"]).toBe(answers[1]?.headers["content-security-policy"]);
  });

  it("refuses at start-up a policy helmet cannot set", () => {
    const broken = helmet({
      contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: [() => "'self'; script-src *"] } },
    });
    expect(() => headersOf(broken)).toThrow();
  });
});
