import type { CurrentUser } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { addPerson, grantAccess, signIn } from "../../support/campus.ts";
import { runCliOn } from "../../support/cli.ts";
import { databaseKinds } from "../../support/databases.ts";

describe.each(databaseKinds)("applications in the reader's language on %s", (kind) => {
  let test: TestApp;
  let cookie: string;

  const cli = async (args: string[]) => {
    const run = await runCliOn(test.database.handle, [...args, "--json"]);
    if (run.code !== 0) throw new Error(run.stderr);
    return run.json<{ id: string }>();
  };
  const user = async (headers: Record<string, string>) => {
    const answer = await test.app.inject({ url: "/user", headers: { cookie, ...headers } });
    expect(answer.statusCode).toBe(200);
    return answer.json<CurrentUser>().applications.map(({ title, description }) => ({ title, description }));
  };

  beforeAll(async () => {
    test = await createTestApp(kind, {}, { protocols: [] });
    const person = await addPerson(test.app, { username: "reader", fullName: "Олена Читач" }, "reader-password-2026");
    const callback = ["--callback-url", "https://campus.kpi.example/kpi-id"];
    const timetable = await cli([
      ...["app", "create", "--name", "timetable", "--title", "Розклад", "--description", "Розклад занять"],
      ...["--title-en", "Timetable", "--description-en", "Class timetable", ...callback],
    ]);
    const library = await cli([
      ...["app", "create", "--name", "library", "--title", "Бібліотека", "--description", "Книги"],
      ...callback,
    ]);
    const journal = await cli([
      ...["app", "create", "--name", "journal", "--title", "Журнал", "--description", "Оцінки", ...callback],
    ]);
    // Translated later, with app update.
    await cli(["app", "update", "--app", "journal", "--title-en", "Gradebook", "--description-en", "Marks"]);
    for (const application of [timetable, library, journal]) await grantAccess(test.app.db, person.id, application.id);
    cookie = await signIn(test.app, "reader", "reader-password-2026");
  });
  afterAll(() => test.close());

  it("answers English titles and descriptions to an English Accept-Language, Ukrainian where none was given", async () => {
    expect(await user({ "accept-language": "en-GB,en;q=0.9" })).toEqual([
      { title: "Gradebook", description: "Marks" },
      { title: "Timetable", description: "Class timetable" },
      { title: "Бібліотека", description: "Книги" },
    ]);
  });

  it("answers Ukrainian to Ukrainian, to languages it does not have and to no Accept-Language at all", async () => {
    const ukrainian = [
      { title: "Бібліотека", description: "Книги" },
      { title: "Журнал", description: "Оцінки" },
      { title: "Розклад", description: "Розклад занять" },
    ];
    expect(await user({ "accept-language": "uk" })).toEqual(ukrainian);
    expect(await user({ "accept-language": "de-DE, fr;q=0.8" })).toEqual(ukrainian);
    expect(await user({})).toEqual(ukrainian);
    // A Ukrainian reader's cookie does not outrank what the request itself asks for.
    expect((await user({ "accept-language": "en", cookie: `${cookie}; i18next=uk` }))[0]?.title).toBe("Gradebook");
  });
});
