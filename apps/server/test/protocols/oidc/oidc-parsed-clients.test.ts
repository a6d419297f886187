import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { addOidcClient } from "../../support/oidc.ts";
import { aboveModelDatabases, createTestApp, type TestApp } from "../../support/testing.ts";

// The provider's Client.find answers the client kept beside its application row (protocols/oidc/parsed-clients.ts):
// an operator's change must still reach the very next request that names the client.
describe.each(aboveModelDatabases)("the clients oidc-provider finds (%s)", (kind) => {
  let test: TestApp;
  beforeAll(async () => {
    test = await createTestApp(kind, {}, { protocols: ["oidc"] });
  });
  afterAll(() => test.close());

  it("answers the same client while the application is unchanged, and the changed one after a change", async () => {
    const created = await addOidcClient(test.app, { redirectUris: ["https://rp.example.edu/cb"] });
    const id = created.application.id;
    const find = () => test.app.oidc.provider.Client.find(id);
    const first = await find();
    expect(first?.redirectUris).toEqual(["https://rp.example.edu/cb"]);
    expect(await find()).toBe(first);

    await test.app.db
      .updateTable("applications")
      .set({ redirect_uris: ["https://rp.example.edu/new-cb"] })
      .where("id", "=", id)
      .execute();
    await vi.waitFor(async () => expect((await find())?.redirectUris).toEqual(["https://rp.example.edu/new-cb"]));

    await test.app.db.updateTable("applications").set({ suspended_at: new Date() }).where("id", "=", id).execute();
    await vi.waitFor(async () => expect(await find()).toBeUndefined());
  });
});
