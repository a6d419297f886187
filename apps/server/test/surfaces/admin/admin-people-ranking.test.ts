import type { PeoplePage } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { addOperator } from "../../support/console.ts";
import { databaseKinds } from "../../support/databases.ts";

// Names as the HR system stores them (surname first) and as people were created by hand (first name first).
const people = [
  { username: "vpetrenko", full_name: "Петренко Володимир Олегович" },
  { username: "opetrenko", full_name: "Петренко Олена Іванівна", email: "o.petrenko@kpi.ua" },
  { username: "olpetrenko", full_name: "Петренко Олександр" },
  { username: "ogpetrenko", full_name: "Олег Петренко" },
  { username: "opetryk", full_name: "Олена Петрик" },
  { username: "mkoval", full_name: "Коваль Микола" },
  // An exact username, e-mail or id comes first although these names sort later.
  { username: "ivan", full_name: "Яковенко Іван" },
  { username: "ipetrov", full_name: "Іванов Петро", email: "ivan.petrov@kpi.ua" },
  { username: "aopetrenko", full_name: "Андрієнко Оксана", email: "co.petrenko@kpi.ua" },
  { username: "student1", full_name: "Шевчук Ірина", student_id: "КВ-1234" },
  { username: "student2", full_name: "Бойко Ганна", student_id: "КВ-12345" },
];

describe.each(databaseKinds)("the people search's ranking and count on %s", (kind) => {
  let t: TestApp;
  let cookie = "";

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: [] });
    cookie = (await addOperator(t.app, ["helpdesk"])).cookie;
    await t.app.db.insertInto("users").values(people).execute();
  });
  afterAll(() => t.close());

  const search = async (query: string) => {
    const response = await t.app.inject({ url: `/api/admin/people?${query}`, headers: { cookie } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<PeoplePage>();
  };
  const names = async (q: string, page = 1) =>
    (await search(`q=${encodeURIComponent(q)}&page=${page}`)).people.map((person) => person.fullName);

  it("puts names beginning with the words first, then the same with first name and surname swapped, then the rest", async () => {
    expect(await names("Петренко Ол")).toEqual([
      "Петренко Олександр",
      "Петренко Олена Іванівна",
      "Олег Петренко",
      "Петренко Володимир Олегович",
    ]);
    expect(await names("олена пет")).toEqual(["Олена Петрик", "Петренко Олена Іванівна"]);
  });

  it("lists an exact username, e-mail or student id first, case aside, even when another name sorts earlier", async () => {
    expect((await names("ivan"))[0]).toBe("Яковенко Іван");
    expect(await names("ivan")).toEqual(["Яковенко Іван", "Іванов Петро"]);
    expect(await names("O.Petrenko@kpi.ua")).toEqual(["Петренко Олена Іванівна", "Андрієнко Оксана"]);
    expect(await names("кв-1234")).toEqual(["Шевчук Ірина", "Бойко Ганна"]);
  });

  it("finds one or two letters at the start of a word, not inside one", async () => {
    expect(await names("ол")).toEqual([
      "Олег Петренко",
      "Олена Петрик",
      "Петренко Олександр",
      "Петренко Олена Іванівна",
      "Петренко Володимир Олегович",
    ]);
    expect(await names("ол")).not.toContain("Коваль Микола");
  });

  it("counts the matches, exactly up to 1,000", async () => {
    expect(await search(`q=${encodeURIComponent("петренко")}`)).toMatchObject({ total: 4, totalCapped: false });
    expect(await search("q=zzzz")).toMatchObject({ people: [], total: 0, totalCapped: false });
    await t.app.db
      .insertInto("users")
      .values(Array.from({ length: 1001 }, (_, i) => ({ username: `mass${i}`, full_name: `Масовий ${i}` })))
      .execute();
    const page = await search(`q=${encodeURIComponent("масовий")}`);
    expect(page).toMatchObject({ total: 1000, totalCapped: true, hasMore: true });
    expect(page.people).toHaveLength(25);
    expect(await search("")).toMatchObject({ total: 1000, totalCapped: true });
  });

  it("pages across the ranks without losing or repeating anyone", async () => {
    await t.app.db
      .insertInto("users")
      .values([
        ...Array.from({ length: 30 }, (_, i) => ({
          username: `bulba${i}`,
          full_name: `Бульба Іван ${String(i).padStart(2, "0")}`,
        })),
        { username: "tbulba", full_name: "Тарас Бульба" },
        { username: "zabulba", full_name: "Забульбаненко Ян" },
      ])
      .execute();
    const first = await search(`q=${encodeURIComponent("бульба")}`);
    const second = await search(`q=${encodeURIComponent("бульба")}&page=2`);
    expect(first).toMatchObject({ total: 32, totalCapped: false, hasMore: true });
    expect(second.hasMore).toBe(false);
    expect(second.people.map((person) => person.fullName)).toEqual([
      "Бульба Іван 25",
      "Бульба Іван 26",
      "Бульба Іван 27",
      "Бульба Іван 28",
      "Бульба Іван 29",
      "Тарас Бульба",
      "Забульбаненко Ян",
    ]);
    expect(new Set([...first.people, ...second.people].map((person) => person.username)).size).toBe(32);
  });
});
