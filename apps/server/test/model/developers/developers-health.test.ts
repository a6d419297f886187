import { integrationFailureLimit } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { integrationHealth, recordIntegrationFailure } from "../../../src/model/developers/health.ts";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { addApplication } from "../../support/campus.ts";
import { databaseKinds } from "../../support/databases.ts";

/**
 * The owners' integration health keeps only the newest failures (integrationFailureLimit), so a client that
 * keeps sending a wrong secret cannot grow the table; each note is one statement (oidc-caches.test.ts).
 */
describe.each(databaseKinds)("an application's integration failures (%s)", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: [] });
  });
  afterAll(() => t.close());

  it("keeps the newest notes, newest first, and no more than the limit", async () => {
    const { application } = await addApplication(t.app);
    const { application: other } = await addApplication(t.app);
    await recordIntegrationFailure(t.app.db, other.id, "oidc", "redirect_uri_not_registered");
    for (let index = 0; index < integrationFailureLimit + 3; index += 1) {
      const reason = index < 3 ? "wrong_secret" : "ticket_invalid";
      await recordIntegrationFailure(t.app.db, application.id, "ticket", reason);
    }
    const health = await integrationHealth(t.app.db, application.id, new Date());
    expect(health.failures).toHaveLength(integrationFailureLimit);
    // The three oldest (the wrong secrets) went; the other application's note stayed.
    expect(health.failures.map((failure) => failure.reason)).not.toContain("wrong_secret");
    const others = await integrationHealth(t.app.db, other.id, new Date());
    expect(others.failures).toHaveLength(1);
  });
});
