import Provider from "oidc-provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { serveThroughServiceStack } from "../support/mounted-provider.ts";

/** Headers that differ between any two answers: when, how long, which version of the body. */
const perAnswer = new Set(["date", "content-length", "etag", "keep-alive", "connection"]);

function headerNames(headers: Record<string, unknown>): string[] {
  return Object.keys(headers)
    .filter((name) => !perAnswer.has(name))
    .sort();
}

/**
 * The bench's floors (bench/lib/memory-provider.ts, login-skeleton.ts) serve through serviceStack, a copy of the
 * service's HTTP stack built in test support. Every header the service's answers carry costs every request: if
 * app.ts gains one that the copy lacks, the floors stop being floors of the service's stack, and this fails.
 */
describe("the bench's copy of the service's HTTP stack", () => {
  let test: TestApp;
  let provider: Provider;

  beforeAll(async () => {
    test = await createTestApp("pglite", {}, { protocols: ["oidc"] });
    provider = new Provider(`${test.config.publicUrl.replace(/\/$/, "")}/oidc`, {
      clients: [
        { client_id: "stack-check", client_secret: "stack-check-secret", redirect_uris: ["https://rp.example.edu/cb"] },
      ],
      features: { devInteractions: { enabled: false } },
    });
  });
  afterAll(() => test?.close());

  it("answers the provider's discovery with the service's headers", async () => {
    const stack = await serveThroughServiceStack(provider, test.config);
    try {
      const path = "/oidc/.well-known/openid-configuration";
      const service = await test.app.inject({ method: "GET", url: path });
      const copy = await stack.inject({ method: "GET", url: path });
      expect(service.statusCode).toBe(200);
      expect(copy.statusCode).toBe(200);
      expect(headerNames(copy.headers)).toEqual(headerNames(service.headers));
      expect(copy.headers["content-security-policy"]).toBe(service.headers["content-security-policy"]);
    } finally {
      await stack.close();
    }
  });
});
