import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { scim, scimToken, scimUser } from "../../support/scim.ts";

interface ListBody {
  totalResults: number;
  itemsPerPage: number;
  Resources?: { userName: string }[];
}

/**
 * Issue 59: RFC 7644 §3.4.2.2 grouping and precedence ("and" binds tighter than "or", not() over a group,
 * nested parentheses), through GET /Users and POST /Users/.search. Two paths are covered: filters the
 * database answers (userName, displayName, active, e-mails) and filters scimmy judges (title, kept as sent).
 */
const people = [
  { userName: "ann", displayName: "Ann Shevchenko", title: "Lecturer", active: true },
  { userName: "bob", displayName: "Bob Koval", title: "Lecturer", active: true },
  { userName: "cat", displayName: "Cat Koval", title: "Dean", active: false },
  { userName: "dan", displayName: "Dan Melnyk", title: "Dean", active: true },
];

const table: [filter: string, expected: string[]][] = [
  ['(userName eq "ann" or userName eq "bob") and active eq true', ["ann", "bob"]],
  ['(userName eq "ann" or userName eq "cat") and active eq true', ["ann"]],
  ['active eq true and (userName eq "ann" or userName eq "bob")', ["ann", "bob"]],
  ['userName eq "ann" or userName eq "cat" and active eq true', ["ann"]],
  ['userName eq "cat" and active eq false or userName eq "dan"', ["cat", "dan"]],
  ['displayName co "Koval" and (userName eq "bob" or userName eq "cat") and active eq true', ["bob"]],
  ['not (userName eq "ann" or userName eq "bob")', ["cat", "dan"]],
  ['not (displayName co "Koval" and active eq true)', ["ann", "cat", "dan"]],
  ['((userName eq "ann" or userName eq "bob") and active eq true) or userName eq "cat"', ["ann", "bob", "cat"]],
  ['(userName eq "ann" or userName eq "dan") and (active eq true or displayName co "Cat")', ["ann", "dan"]],
  ['(title eq "Dean" or title eq "Lecturer") and active eq true', ["ann", "bob", "dan"]],
  ['title eq "Dean" and (userName eq "cat" or userName eq "dan") and active eq true', ["dan"]],
  ['not (title eq "Lecturer") and active eq true', ["dan"]],
  ['emails[value sw "ann@" or value sw "cat@"] and active eq true', ["ann"]],
  ['USERNAME EQ "ANN" OR (userName eq "bob" AND NOT (active eq true))', ["ann"]],
];

describe.each(aboveModelDatabases)("SCIM filter grouping and precedence (%s)", (kind) => {
  let t: TestApp;
  let token = "";
  const names = (body: ListBody) => (body.Resources ?? []).map((item) => item.userName).sort();

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: ["scim"] });
    token = await scimToken(t.app, "hr");
    for (const person of people) {
      const created = await scim(t.app, token, "/Users", {
        method: "POST",
        body: scimUser(person.userName, { ...person, name: { formatted: person.displayName } }),
      });
      expect(created.statusCode, created.body).toBe(201);
    }
  });
  afterAll(() => t.close());

  it.each(table)("%s", async (filter, expected) => {
    const got = await scim(t.app, token, `/Users?filter=${encodeURIComponent(filter)}`);
    expect(got.statusCode, got.body).toBe(200);
    const body = got.json<ListBody>();
    expect(names(body)).toEqual(expected);
    expect([body.totalResults, body.itemsPerPage]).toEqual([expected.length, expected.length]);
    const searched = await scim(t.app, token, "/Users/.search", {
      method: "POST",
      body: { schemas: ["urn:ietf:params:scim:api:messages:2.0:SearchRequest"], filter },
    });
    expect(names(searched.json<ListBody>())).toEqual(expected);
  });

  it("groups GET /Groups the same way", async () => {
    for (const displayName of ["Alpha board", "Beta board", "Alpha club"]) {
      const body = { schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"], displayName };
      expect((await scim(t.app, token, "/Groups", { method: "POST", body })).statusCode).toBe(201);
    }
    const filter = '(displayName ew "board" or displayName eq "Alpha club") and not (displayName sw "Beta")';
    const got = await scim(t.app, token, `/Groups?filter=${encodeURIComponent(filter)}`);
    expect(got.statusCode, got.body).toBe(200);
    const groups = (got.json<{ Resources?: { displayName: string }[] }>().Resources ?? []).map((g) => g.displayName);
    expect(groups.sort()).toEqual(["Alpha board", "Alpha club"]);
  });

  it("answers a malformed group with 400 invalidFilter, never 500", async () => {
    for (const filter of [
      '(userName eq "ann"',
      'userName eq "ann")',
      "not userName pr",
      'emails[value eq "x"',
      '"ann" eq userName',
      "userName zz 1",
      'userName eq "unterminated',
      "()",
    ]) {
      const refused = await scim(t.app, token, `/Users?filter=${encodeURIComponent(filter)}`);
      expect(refused.statusCode, filter).toBe(400);
      expect(refused.json<{ scimType: string }>().scimType, filter).toBe("invalidFilter");
    }
  });
});
