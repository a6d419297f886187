import { developerApplicationSchema } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownerNotice } from "../../../src/model/developers/notices.ts";
import { loadNameSkeleton } from "../../../src/model/developers/reserved-names.ts";
import { createTestApp, postJson, type TestApp } from "../../support/app.ts";
import { addOperator } from "../../support/console.ts";
import { databaseKinds } from "../../support/databases.ts";
import { addStudent, decideQueued, queuedRequestId, registerApplication } from "../../support/developers.ts";
import { untilSomeoneWaitsForALock } from "../../support/lock-waits.ts";

/** Issue 56: a live application's edit is a pending change, decided by an operator, withdrawn by its owner. */
describe.each(databaseKinds)("pending changes of live applications (%s)", (kind) => {
  let t: TestApp;
  let admin: { cookie: string };
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: [] });
    admin = await addOperator(t.app, ["admin"]);
  });
  afterAll(() => t.close());

  const get = (url: string, cookie: string) => t.app.inject({ url, headers: { cookie } });
  const post = (url: string, body: unknown, cookie: string) => postJson(t.app, url, body, { headers: { cookie } });
  const detail = async (url: string, cookie: string) =>
    developerApplicationSchema.parse((await get(url, cookie)).json());
  const auditTypes = async (applicationId: string) =>
    (
      await t.app.db
        .selectFrom("audit_events")
        .select("event_type")
        .where("application_id", "=", applicationId)
        .orderBy("occurred_at")
        .orderBy("id")
        .execute()
    ).map((row) => row.event_type);

  async function liveApplication() {
    const owner = await addStudent(t.app, "owner");
    const { application } = await registerApplication(t.app, owner.cookie, {
      title: "Бібліотека",
      titleEn: "Library",
      callbackUrls: ["https://library.example.edu/callback"],
    });
    const url = `/api/developers/applications/${application.id}`;
    await post(
      `${url}/review`,
      { purpose: "Каталог бібліотеки", dataNeeded: "Ім'я читача для замовлень" },
      owner.cookie,
    );
    await decideQueued(t.app, admin.cookie, application.id, { decision: "approved" });
    return { owner, application, url };
  }

  it("edits an application in testing at once, with no pending change", async () => {
    const owner = await addStudent(t.app, "owner");
    const { application } = await registerApplication(t.app, owner.cookie, {
      title: "Бот",
      titleEn: "Bot",
      callbackUrls: ["https://bot.example.edu/cb"],
    });
    const url = `/api/developers/applications/${application.id}`;
    expect(await detail(url, owner.cookie)).toMatchObject({ pendingChange: null });
    const edited = developerApplicationSchema.parse((await post(url, { title: "Бот 2" }, owner.cookie)).json());
    expect(edited).toMatchObject({ title: "Бот 2", pendingChange: null });
  });

  it("approves exactly the change asked for: the new values go live and the owners' page says so", async () => {
    const { owner, application, url } = await liveApplication();
    await post(url, { title: "Бібліотека КПІ", description: "Каталог і замовлення" }, owner.cookie);
    const before = await detail(url, owner.cookie);
    expect(before).toMatchObject({ title: "Бібліотека", description: "", pendingChange: { status: "pending" } });
    expect(before.pendingChange?.changes).toEqual([
      { field: "title", before: ["Бібліотека"], after: ["Бібліотека КПІ"] },
      { field: "description", before: [], after: ["Каталог і замовлення"] },
    ]);
    const reader = await addStudent(t.app, "reader");
    const titles = async () =>
      ((await get("/api/user", reader.cookie)).json().applications as { title: string }[]).map((each) => each.title);
    expect(await titles()).toContain("Бібліотека");
    expect((await decideQueued(t.app, admin.cookie, application.id, { decision: "approved" })).statusCode).toBe(200);
    expect(await titles()).toContain("Бібліотека КПІ");
    expect(await detail(url, owner.cookie)).toMatchObject({
      title: "Бібліотека КПІ",
      description: "Каталог і замовлення",
      pendingChange: { status: "approved" },
    });
    expect(await auditTypes(application.id)).toEqual(
      expect.arrayContaining(["application_change_requested", "application_change_approved"]),
    );
  });

  it("merges a second edit into one change with a new id, and withdraws one brought back to the live values", async () => {
    const { owner, application, url } = await liveApplication();
    await post(url, { title: "Бібліотека 2" }, owner.cookie);
    const first = (await detail(url, owner.cookie)).pendingChange?.id;
    await post(url, { titleEn: "Library 2" }, owner.cookie);
    const merged = (await detail(url, owner.cookie)).pendingChange;
    expect(merged?.id).not.toBe(first);
    expect(merged?.changes.map((change) => change.field)).toEqual(["title", "titleEn"]);
    // The first id is no longer what waits: withdrawing it by that id is refused.
    const stale = await post(`${url}/change/withdraw`, { changeId: first }, owner.cookie);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: "developer.change_not_pending" });
    // Editing back to the live values leaves nothing to approve.
    await post(url, { title: "Бібліотека", titleEn: "Library" }, owner.cookie);
    expect(await detail(url, owner.cookie)).toMatchObject({ pendingChange: null });
    const queue = (await get("/api/admin/reviews", admin.cookie)).json().reviews as { applicationId: string }[];
    expect(queue.some((each) => each.applicationId === application.id)).toBe(false);
  });

  it("lets the owner withdraw the pending change; the queue forgets it and the audit log keeps it", async () => {
    const { owner, application, url } = await liveApplication();
    await post(url, { redirectUris: ["https://library.example.edu/oidc"] }, owner.cookie);
    const changeId = await queuedRequestId(t.app, admin.cookie, application.id);
    const withdrawn = await post(`${url}/change/withdraw`, { changeId }, owner.cookie);
    expect(withdrawn.statusCode).toBe(200);
    expect(developerApplicationSchema.parse(withdrawn.json())).toMatchObject({ pendingChange: null, redirectUris: [] });
    const late = await post(
      `/api/admin/reviews/${application.id}`,
      { decision: "approved", requestId: changeId },
      admin.cookie,
    );
    expect(late.json()).toMatchObject({ code: "admin.review_not_pending" });
    expect(await auditTypes(application.id)).toEqual(
      expect.arrayContaining(["application_change_requested", "application_change_withdrawn"]),
    );
  });

  it("rejects with a reason the owner reads, keeps the live version, audits it and mails the reason", async () => {
    const { owner, application, url } = await liveApplication();
    await post(url, { scopes: ["openid", "profile", "email"] }, owner.cookie);
    const reason = "Е-пошта не потрібна для каталогу";
    await decideQueued(t.app, admin.cookie, application.id, { decision: "rejected", reason });
    expect(await detail(url, owner.cookie)).toMatchObject({
      scopes: ["openid", "profile"],
      pendingChange: { status: "rejected", reason, changes: [{ field: "scopes" }] },
    });
    expect(await auditTypes(application.id)).toContain("application_change_rejected");
    const mail = ownerNotice(
      "change_rejected",
      "en",
      { id: application.id, title: application.title, title_en: application.titleEn },
      reason,
      "https://id.kpi.ua",
    );
    expect(mail.subject).toContain("change");
    expect(mail.paragraphs).toContain(`Reason: ${reason}`);
  });

  it("checks a change again at approval: a name made official since is refused and the change stays pending", async () => {
    const { owner, application, url } = await liveApplication();
    await post(url, { titleEn: "Student Portal" }, owner.cookie);
    await t.app.db
      .insertInto("applications")
      .values({
        name: "portal",
        title: "Портал",
        title_en: "Student Portal",
        callback_url: "https://p.kpi.ua/cb",
        secret_hash: "x",
      })
      .execute();
    const approved = await decideQueued(t.app, admin.cookie, application.id, { decision: "approved" });
    expect(approved.json()).toMatchObject({ code: "developer.reserved_name" });
    expect(await detail(url, owner.cookie)).toMatchObject({ titleEn: "Library", pendingChange: { status: "pending" } });
  });

  it("keeps one pending change when two edits arrive at once", async () => {
    const { owner, application, url } = await liveApplication();
    const answers = await Promise.all([
      post(url, { title: "Бібліотека А" }, owner.cookie),
      post(url, { titleEn: "Library B" }, owner.cookie),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    const pending = await t.app.db
      .selectFrom("application_changes")
      .select("changes")
      .where("application_id", "=", application.id)
      .where("status", "=", "pending")
      .execute();
    expect(pending).toHaveLength(1);
    expect(Object.keys(pending[0]?.changes ?? {}).sort()).toEqual(["title", "titleEn"]);
  });

  // Registered on PostgreSQL only: PGlite runs one transaction at a time, so the two cannot interleave there.
  if (kind === "postgres") {
    it("decides a change while an owner edits it, without a deadlock", async () => {
      const { owner, application, url } = await liveApplication();
      await post(url, { title: "Бібліотека Б" }, owner.cookie);
      const requestId = await queuedRequestId(t.app, admin.cookie, application.id);
      // This transaction takes the locks as an owner's edit does: the application, then its pending change. The
      // decision comes between; taking the change first, it deadlocked with the edit (PostgreSQL 40P01, a 500).
      const { decided } = await t.app.db.transaction().execute(async (edit) => {
        await edit.selectFrom("applications").select("id").where("id", "=", application.id).forUpdate().execute();
        const body = { decision: "rejected", reason: "Не зараз", requestId };
        // inject() starts when awaited: then() sends it now.
        const decided = post(`/api/admin/reviews/${application.id}`, body, admin.cookie).then((answer) => answer);
        await untilSomeoneWaitsForALock(t.app.db);
        await edit
          .selectFrom("application_changes")
          .select("id")
          .where("application_id", "=", application.id)
          .where("status", "=", "pending")
          .forUpdate()
          .execute();
        return { decided };
      });
      expect((await decided).statusCode).toBe(200);
      expect(await detail(url, owner.cookie)).toMatchObject({
        pendingChange: { status: "rejected", reason: "Не зараз" },
      });
    });
  }

  it("makes a new icon of a live application part of its pending change", async () => {
    const { owner, url } = await liveApplication();
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32)]);
    const uploaded = await post(
      `${url}/icon`,
      { contentType: "image/png", data: png.toString("base64") },
      owner.cookie,
    );
    const { iconUrl } = uploaded.json() as { iconUrl: string };
    expect(iconUrl).toMatch(/\.png$/);
    const asked = developerApplicationSchema.parse((await post(url, { iconUrl }, owner.cookie)).json());
    expect(asked.iconUrl).toBe("");
    expect(asked.pendingChange?.changes).toEqual([{ field: "iconUrl", before: [], after: [iconUrl] }]);
    const served = await t.app.inject({ url: iconUrl });
    expect(served.headers["content-type"]).toBe("image/png");
    expect(served.rawPayload.equals(png)).toBe(true);
  });

  it("reads names as TR 39 skeletons", async () => {
    const nameSkeleton = await loadNameSkeleton();
    expect(nameSkeleton("КРІ Саmрus")).toBe(nameSkeleton("kpi campus"));
    expect(nameSkeleton("Eлектронний кaмпус")).toBe(nameSkeleton("ЕЛЕКТРОННИЙ  КАМПУС"));
    expect(nameSkeleton("Timetable")).not.toBe(nameSkeleton("Campus"));
    // Invisible fillers go (U+FFA0 folds to a filler under NFKC); a dotted or dotless I reads as I.
    for (const name of ["KPI ID\u3164", "\u115FKPI\u1160ID", "KPI ID\uFFA0", "KPIİD", "kpı ıd"]) {
      expect(nameSkeleton(name), name).toBe(nameSkeleton("KPI ID"));
    }
  });
});
