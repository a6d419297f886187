import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app.ts";

describe("sign-in with Diia when it is not configured", () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await createTestApp("pglite", {}, { protocols: [] });
  });
  afterAll(async () => test?.close());

  it("answers diia.not_configured and reports it disabled", async () => {
    const response = await test.app.inject({ method: "GET", url: "/api/diia/app-link" });
    expect(response.statusCode).toBe(503);
    expect(response.json().code).toBe("diia.not_configured");
    expect(test.app.features.diia).toBe(false);
  });
});
