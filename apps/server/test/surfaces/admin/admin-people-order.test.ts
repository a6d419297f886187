import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { addOperator } from "../../support/console.ts";
import { databaseKinds } from "../../support/databases.ts";

// The Ukrainian alphabet where code points disagree: Ґ after Г, Є after Е, І and Ї after И, Я last.
const alphabetical = [
  "Андрієнко Ярема",
  "Гнатюк Олег",
  "Ґалаган Марта",
  "Ельзин Петро",
  "Євтушенко Ганна",
  "Иваненко Данило",
  "ірисенко Роман",
  "Їжакевич Софія",
  "Йосипенко Ліна",
  "Юрченко Віра",
  "Яковенко Ілля",
];

describe.each(databaseKinds)("the people list's order on %s", (kind) => {
  let t: TestApp;
  let cookie = "";

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: [] });
    cookie = (await addOperator(t.app, ["admin"])).cookie;
    const shuffled = [...alphabetical].reverse();
    await t.app.db
      .insertInto("users")
      .values(shuffled.map((fullName, index) => ({ username: `order${index}`, full_name: fullName })))
      .execute();
  });
  afterAll(() => t.close());

  const names = async (query: string) => {
    const response = await t.app.inject({ url: `/api/admin/people?${query}`, headers: { cookie } });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { people: { fullName: string; username: string }[] }).people
      .filter((person) => person.username.startsWith("order"))
      .map((person) => person.fullName);
  };

  it("sorts names in the Ukrainian alphabet, on the whole list and on a search", async () => {
    expect(await names("")).toEqual(alphabetical);
    // "енко" is common enough to walk the name index; "order" is found through the trigram index.
    expect(await names("q=order")).toEqual(alphabetical);
    expect(await names("q=енко")).toEqual(alphabetical.filter((name) => name.includes("енко")));
  });
});
