import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { scim, scimToken, scimUser } from "../../support/scim.ts";

interface ListBody {
  totalResults: number;
  itemsPerPage: number;
  startIndex: number;
  Resources?: { id: string; userName: string }[];
}

/** Issue 36: filters on e-mails, paging to the end, "changed since", conditional GET and /Me. */
describe.each(aboveModelDatabases)("SCIM filters and paging as clients use them (%s)", (kind) => {
  let t: TestApp;
  let token = "";
  const list = async (query: string) => {
    const response = await scim(t.app, token, `/Users?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ListBody>();
  };
  const names = (body: ListBody) => (body.Resources ?? []).map((item) => item.userName).sort();
  const filter = (expression: string) => `filter=${encodeURIComponent(expression)}`;

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: ["scim"] });
    token = await scimToken(t.app, "hr");
    for (const name of ["with.mail.1", "with.mail.2"])
      expect((await scim(t.app, token, "/Users", { method: "POST", body: scimUser(name) })).statusCode).toBe(201);
    const bare = scimUser("without.mail");
    const { emails: _dropped, ...withoutMail } = bare;
    expect((await scim(t.app, token, "/Users", { method: "POST", body: withoutMail })).statusCode).toBe(201);
  });
  afterAll(() => t.close());

  it("filters on e-mails work whether or not people have one", async () => {
    expect(names(await list(filter("emails pr")))).toEqual(["with.mail.1", "with.mail.2"]);
    expect(names(await list(filter('emails.value eq "WITH.MAIL.2@example.com"')))).toEqual(["with.mail.2"]);
    expect(names(await list(filter('emails[type eq "work" and value eq "with.mail.1@example.com"]')))).toEqual([
      "with.mail.1",
    ]);
    expect(names(await list(filter("not (emails pr)")))).toContain("without.mail");
  });

  it("pages to the end: past it the page is empty, and itemsPerPage is what the page holds", async () => {
    const first = await list("startIndex=1&count=2");
    expect([first.totalResults, first.itemsPerPage, first.Resources?.length]).toEqual([3, 2, 2]);
    const last = await list("startIndex=3&count=2");
    expect([last.itemsPerPage, last.Resources?.length]).toEqual([1, 1]);
    const past = await list("startIndex=4&count=2");
    expect([past.totalResults, past.itemsPerPage, past.Resources ?? []]).toEqual([3, 0, []]);
    const filteredPast = await list(`${filter("emails pr")}&startIndex=5&count=10`);
    expect([filteredPast.totalResults, filteredPast.itemsPerPage, filteredPast.Resources ?? []]).toEqual([2, 0, []]);
  });

  it('"changed since" (meta.lastModified gt) pages through the changes in a stable order', async () => {
    const since = new Date(Date.now() - 3_600_000).toISOString();
    const seen: string[] = [];
    for (let startIndex = 1; ; startIndex += 2) {
      const page = await list(`${filter(`meta.lastModified gt "${since}"`)}&startIndex=${startIndex}&count=2`);
      if (!page.Resources?.length) break;
      seen.push(...page.Resources.map((item) => item.userName));
    }
    expect(seen.sort()).toEqual(["with.mail.1", "with.mail.2", "without.mail"]);
  });

  it("If-None-Match with the current version answers 304; /Me says it is not offered", async () => {
    const [someone] = (await list(filter('userName eq "with.mail.1"'))).Resources ?? [];
    const read = await scim(t.app, token, `/Users/${someone?.id}`);
    const etag = String(read.headers.etag);
    const again = await scim(t.app, token, `/Users/${someone?.id}`, { headers: { "if-none-match": etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
    const stale = await scim(t.app, token, `/Users/${someone?.id}`, { headers: { "if-none-match": 'W/"old"' } });
    expect(stale.statusCode).toBe(200);
    const me = await scim(t.app, token, "/Me");
    expect(me.statusCode).toBe(501);
    expect(me.json<{ detail: string }>().detail).toMatch(/\/Me/);
  });
});
