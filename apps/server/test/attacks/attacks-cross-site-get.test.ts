import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { addPerson, signIn } from "../support/campus.ts";
import { aboveModelDatabases } from "../support/databases.ts";

/** A GET another site's link, image, frame or fetch can make: every Sec-Fetch-Site and -Mode it may carry. */
const foreignGets = ["cross-site", "same-site"].flatMap((site) =>
  ["navigate", "no-cors", "cors"].map((mode) => ({
    "sec-fetch-site": site,
    "sec-fetch-mode": mode,
    origin: "https://evil.example",
  })),
);

describe.each(aboveModelDatabases)("GETs from another site on %s", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
    await addPerson(t.app, { username: "visitor", fullName: "Відвідувач" }, "visitor passphrase");
  });
  afterAll(() => t.close());

  it("signs nobody out with a GET from another site: a link, an image or a frame on any page", async () => {
    const victim = await signIn(t.app, "visitor", "visitor passphrase");
    for (const headers of foreignGets) {
      const response = await t.app.inject({ url: "/api/auth/logout", headers: { cookie: victim, ...headers } });
      expect(response.statusCode).toBe(403);
      expect(response.headers["set-cookie"]).toBeUndefined();
    }
    expect((await t.app.inject({ url: "/user", headers: { cookie: victim } })).statusCode).toBe(200);
  });

  it("lets no other site fetch a person's data download, signed in or not", async () => {
    const victim = await signIn(t.app, "visitor", "visitor passphrase");
    for (const headers of foreignGets) {
      const response = await t.app.inject({
        url: "/api/account/personal-data",
        headers: { cookie: victim, ...headers },
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().code).toBe("request.csrf_rejected");
      expect(response.headers["access-control-allow-origin"]).toBeUndefined();
    }
    const own = await t.app.inject({
      url: "/api/account/personal-data",
      headers: { cookie: victim, "sec-fetch-site": "same-origin", "sec-fetch-mode": "cors" },
    });
    expect(own.statusCode).toBe(200);
  });
});
