// The server's tests sign with RSA keys made once per worker (test/support/rsa-keys.ts): two apps of one test, or
// an app's key and the one its rotation makes, must still not share key material.
import { afterEach, describe, expect, it } from "vitest";
import { rotateSigningKeys } from "../../../src/model/oidc/key-rollover.ts";
import { createTestApp, type TestApp } from "../../support/app.ts";

interface PublishedKeys {
  keys: { kid: string; n: string }[];
}

async function publishedKeys(test: TestApp): Promise<PublishedKeys["keys"]> {
  return ((await test.app.inject({ url: "/oidc/jwks" })).json() as PublishedKeys).keys;
}

describe("signing keys in the server's tests", () => {
  const apps: TestApp[] = [];
  afterEach(async () => {
    for (const test of apps.splice(0)) await test.close();
  });

  it("gives two apps of one test different keys, and a rotation a key unlike the one it replaces", async () => {
    const first = await createTestApp("pglite", {}, { protocols: ["oidc"] });
    apps.push(first);
    const second = await createTestApp("pglite", {}, { protocols: ["oidc"] });
    apps.push(second);
    const [firstKey] = await publishedKeys(first);
    const [secondKey] = await publishedKeys(second);
    expect(firstKey?.n).toBeDefined();
    expect(secondKey?.n).not.toBe(firstKey?.n);

    await rotateSigningKeys(first.app.db, first.config.sessionSecret);
    await first.app.oidc.refresh();
    const moduli = (await publishedKeys(first)).map((key) => key.n);
    expect(new Set(moduli).size).toBe(2);
  });
});
