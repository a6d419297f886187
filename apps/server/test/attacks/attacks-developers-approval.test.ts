import { type DeveloperApplication, developerApplicationSchema, reviewQueueSchema } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApplication } from "../../src/model/apps/service.ts";
import { createTestApp, postJson, type TestApp } from "../support/app.ts";
import { addOperator } from "../support/console.ts";
import { aboveModelDatabases } from "../support/databases.ts";
import { addStudent, decideQueued, queuedRequestId, registerApplication } from "../support/developers.ts";
import { openAgreeing } from "../support/ticket-consent.ts";

/**
 * Issue 56, point 1: an approved application must not become someone else. An owner of a live application tries
 * to take an official application's name, its description and icon, move its addresses and widen its scopes, all
 * through the developers' API a student uses; the live version keeps running until an operator approves (the icon's
 * own attacks are in attacks-developers-icons.test.ts).
 */
describe.each(aboveModelDatabases)("attacks on what the review approved (%s)", (kind) => {
  let t: TestApp;
  let admin: { cookie: string };
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await addOperator(t.app, ["admin"]);
    // The university's own application, made by an operator (no owners, not registered on the developers' page).
    await createApplication(t.app.db, {
      name: "campus",
      title: "Електронний кампус",
      titleEn: "KPI Campus",
      description: "Офіційний кампус",
      callbackUrl: "https://campus.kpi.ua/kpi-id/callback",
    });
  });
  afterAll(() => t.close());

  const get = (url: string, cookie: string) => t.app.inject({ url, headers: { cookie } });
  const post = (url: string, body: unknown, cookie: string) => postJson(t.app, url, body, { headers: { cookie } });
  // A person opening it as people do: a community application asks for consent once (issue 56, point 2), and they agree.
  const open = async (cookie: string, appId: string, redirectUri?: string) => {
    const { location } = await openAgreeing(t.app, cookie, { appId, ...(redirectUri && { redirectUri }) });
    return { headers: { location } };
  };
  const titlesOnAppsPage = async (cookie: string) =>
    ((await get("/api/user", cookie)).json().applications as { title: string }[]).map((each) => each.title);

  /** A student's application, reviewed and approved: live for everyone the default rules allow. */
  async function liveApplication() {
    const owner = await addStudent(t.app, "owner");
    const { application } = await registerApplication(t.app, owner.cookie, {
      title: "Розклад",
      titleEn: "Timetable",
      description: "Розклад занять групи",
      callbackUrls: ["https://timetable.example.edu/callback"],
      scopes: ["openid", "profile"],
    });
    const url = `/api/developers/applications/${application.id}`;
    const review = { purpose: "Розклад занять для студентів", dataNeeded: "Ім'я, щоб привітатися" };
    expect((await post(`${url}/review`, review, owner.cookie)).statusCode).toBe(200);
    expect((await decideQueued(t.app, admin.cookie, application.id, { decision: "approved" })).statusCode).toBe(200);
    return { owner, application, url };
  }

  it("keeps an application renamed after approval running as approved until an operator agrees", async () => {
    const { owner, application, url } = await liveApplication();
    const classmate = await addStudent(t.app, "classmate");
    // The official name outright is refused, in either language.
    for (const title of [{ title: "Електронний кампус" }, { titleEn: "KPI Campus" }]) {
      expect((await post(url, title, owner.cookie)).json()).toMatchObject({ code: "developer.reserved_name" });
    }
    const takeover = {
      title: "Кампус КПІ 2",
      titleEn: "Campus 2",
      description: "Офіційний кампус університету",
      callbackUrls: ["https://evil.example/collect"],
      scopes: ["openid", "profile", "email", "kpi", "offline_access"] as const,
    };
    const asked = await post(url, takeover, owner.cookie);
    expect(asked.statusCode).toBe(200);
    const pending: DeveloperApplication = developerApplicationSchema.parse(asked.json());
    // The answer shows the live values and the change waiting beside them.
    expect(pending).toMatchObject({ title: "Розклад", lifecycle: "live", pendingChange: { status: "pending" } });
    expect(pending.pendingChange?.changes).toEqual(
      expect.arrayContaining([
        { field: "title", before: ["Розклад"], after: ["Кампус КПІ 2"] },
        {
          field: "callbackUrls",
          before: ["https://timetable.example.edu/callback"],
          after: ["https://evil.example/collect"],
        },
      ]),
    );
    // Everyone else still sees and reaches the approved version: its title and its callback.
    expect(await titlesOnAppsPage(classmate.cookie)).toContain("Розклад");
    expect(await titlesOnAppsPage(classmate.cookie)).not.toContain("Кампус КПІ 2");
    const redirect = await open(classmate.cookie, application.id);
    expect(String(redirect.headers.location)).toMatch(/^https:\/\/timetable\.example\.edu\/callback\?ticketId=/);
    // The operator reads the difference, old → new, and rejects it: nothing changes, the owner sees why.
    const queue = reviewQueueSchema.parse((await get("/api/admin/reviews", admin.cookie)).json());
    const request = queue.reviews.find((each) => each.applicationId === application.id);
    expect(request).toMatchObject({ kind: "change", title: "Розклад" });
    expect(request?.changes.map((change) => change.field)).toEqual([
      "title",
      "titleEn",
      "description",
      "callbackUrls",
      "scopes",
    ]);
    const reason = "Назва й адреса не відповідають застосунку";
    expect((await decideQueued(t.app, admin.cookie, application.id, { decision: "rejected", reason })).statusCode).toBe(
      200,
    );
    expect((await get(url, owner.cookie)).json()).toMatchObject({
      title: "Розклад",
      callbackUrls: ["https://timetable.example.edu/callback"],
      scopes: ["openid", "profile"],
      pendingChange: { status: "rejected", reason },
    });
    expect(String((await open(classmate.cookie, application.id)).headers.location)).toMatch(/^https:\/\/timetable\./);
  });

  it("takes no new address before approval: in review nothing changes, when live the old address stays", async () => {
    const owner = await addStudent(t.app, "owner");
    const { application } = await registerApplication(t.app, owner.cookie, {
      title: "Голосування",
      titleEn: "Voting",
      callbackUrls: ["https://vote.example.edu/callback"],
    });
    const url = `/api/developers/applications/${application.id}`;
    await post(`${url}/review`, { purpose: "Голосування старост", dataNeeded: "Ім'я для бюлетеня" }, owner.cookie);
    // While the operator reads the request, the application cannot move under them.
    const slipped = await post(url, { callbackUrls: ["https://evil.example/callback"] }, owner.cookie);
    expect(slipped.statusCode).toBe(409);
    expect(slipped.json()).toMatchObject({ code: "developer.under_review" });
    const requestId = await queuedRequestId(t.app, admin.cookie, application.id);
    await post(`/api/admin/reviews/${application.id}`, { decision: "approved", requestId }, admin.cookie);
    // Live: the new address waits as a change; a sign-in link naming it is refused, the approved one works.
    await post(url, { callbackUrls: ["https://vote.example.edu/callback", "https://evil.example/cb"] }, owner.cookie);
    const voter = await addStudent(t.app, "voter");
    const named = await open(voter.cookie, application.id, "https://evil.example/cb");
    // The browser stays on KPI ID's apps page, which names the refused address (issue 60); no ticket goes there.
    const location = String(named.headers.location ?? "");
    expect(location).toMatch(/^\/uk\/apps\?/);
    expect(new URLSearchParams(location.split("?")[1]).get("refused")).toBe("redirectUri");
    const stale = await queuedRequestId(t.app, admin.cookie, application.id);
    // The owner swaps the change after the operator read it: approving what was read is refused, not applied blindly.
    await post(url, { callbackUrls: ["https://evil.example/other"] }, owner.cookie);
    const blind = await post(
      `/api/admin/reviews/${application.id}`,
      { decision: "approved", requestId: stale },
      admin.cookie,
    );
    expect(blind.statusCode).toBe(409);
    expect(blind.json()).toMatchObject({ code: "admin.review_outdated" });
    expect((await get(url, owner.cookie)).json().callbackUrls).toEqual(["https://vote.example.edu/callback"]);
  });

  it.each([
    ["the official English name in Cyrillic look-alikes", { titleEn: "КРІ Саmрus" }],
    ["the official name with Latin look-alikes", { title: "Eлектронний кaмпус" }],
    ["another case and spacing", { titleEn: "k p i - c a m p u s" }],
    ["full-width letters", { titleEn: "ＫＰＩ Ｃａｍｐｕｓ" }],
    ["a zero-width-free look-alike of the service itself", { titleEn: "KPl lD" }],
    ["the service's Ukrainian name", { title: "КПІ ID" }],
    ["a dotted capital I", { titleEn: "KPIİD" }],
    ["the service's name inside a longer one", { titleEn: "KPI ID Login" }],
  ])("refuses a homoglyph title: %s", async (_, title) => {
    const owner = await addStudent(t.app, "owner");
    const created = await post(
      "/api/developers/applications",
      { title: "Бот", titleEn: "Bot", callbackUrls: ["https://bot.example.edu/cb"], ...title },
      owner.cookie,
    );
    expect(created.statusCode).toBe(400);
    expect(created.json()).toMatchObject({ code: "developer.reserved_name" });
    // And the same names on an edit of an application in testing.
    const { application } = await registerApplication(t.app, owner.cookie, {
      title: "Бот",
      titleEn: "Bot",
      callbackUrls: ["https://bot.example.edu/cb"],
    });
    const edited = await post(`/api/developers/applications/${application.id}`, title, owner.cookie);
    expect(edited.json()).toMatchObject({ code: "developer.reserved_name" });
  });

  it.each([
    ["a right-to-left override", "Розклад\u202Egpj.exe"],
    ["a line feed", "Розклад\nОфіційний"],
    ["a carriage return", "Розклад\r"],
    ["a zero-width space", "Кам\u200Bпус"],
    ["a byte order mark", "\uFEFFРозклад"],
    ["a first-strong isolate", "Розклад\u2068"],
    ["a bell (C0)", "Розклад\u0007"],
    ["a C1 control", "Розклад\u0085"],
    ["a word joiner", "Кам\u2060пус"],
    // Invisible letters (category Lo) and other default-ignorable code points: "KPI ID\u3164" reads as "KPI ID".
    ["a Hangul filler", "KPI ID\u3164"],
    ["a Hangul choseong filler", "\u115FРозклад"],
    ["a halfwidth Hangul filler", "Розклад\uFFA0"],
    ["a combining grapheme joiner", "Кам\u034Fпус"],
    ["a variation selector", "Розклад\uFE00"],
  ])("refuses control characters in titles and descriptions: %s", async (_, value) => {
    const owner = await addStudent(t.app, "owner");
    for (const field of ["title", "titleEn", "description", "descriptionEn"]) {
      const response = await post(
        "/api/developers/applications",
        { title: "Бот", titleEn: "Bot", callbackUrls: ["https://bot.example.edu/cb"], [field]: value },
        owner.cookie,
      );
      expect(response.statusCode, field).toBe(400);
      expect(response.json(), field).toMatchObject({
        code: "developer.invalid_characters",
        details: [{ path: `body.${field}` }],
      });
    }
  });

  it.each([
    ["an IPv4 literal", "https://203.0.113.7/callback"],
    ["an IPv6 literal", "https://[2001:db8::1]/callback"],
    ["a loopback IPv4 over https", "https://127.0.0.1/callback"],
    ["https://localhost", "https://localhost/callback"],
    ["a name under localhost", "https://app.localhost/callback"],
    ["port 0", "https://bot.example.edu:0/callback"],
    ["port 0 on the development address", "http://localhost:0/callback"],
  ])("refuses a redirect URI or callback with %s", async (_, address) => {
    const owner = await addStudent(t.app, "owner");
    for (const field of ["redirectUris", "callbackUrls"]) {
      const response = await post(
        "/api/developers/applications",
        { title: "Бот", titleEn: "Bot", [field]: [address] },
        owner.cookie,
      );
      expect(response.statusCode, field).toBe(400);
      expect(response.json(), field).toMatchObject({ code: "developer.invalid_uri" });
    }
  });

  it("keeps the development addresses for applications in testing", async () => {
    const owner = await addStudent(t.app, "owner");
    const created = await registerApplication(t.app, owner.cookie, {
      title: "Бот",
      titleEn: "Bot",
      callbackUrls: ["http://localhost:3000/callback", "http://127.0.0.1:8080/callback"],
      redirectUris: ["http://localhost/oidc"],
    });
    expect(created.application.callbackUrls).toHaveLength(2);
  });
});
