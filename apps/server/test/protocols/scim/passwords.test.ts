import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningMailStandIn } from "../../../../../sandbox/src/mail/index.ts";
import { createTestApp, postJson, type TestApp } from "../../support/app.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { startTestMail } from "../../support/mail.ts";
import { scim, scimErrorSchema, scimToken } from "../../support/scim.ts";
import { okta } from "./recorded/okta.ts";

interface UserBody {
  id: string;
  userName: string;
  password?: string;
}
interface ErrorBody {
  schemas: string[];
  status: string;
  scimType?: string;
  detail: string;
}

const firstPassword = "a lantern over podil";
const secondPassword = "chestnuts on khreshchatyk";
/** Long enough for a second message, sent in the background like the first, to have arrived too. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 750));

/** Issue 59: Okta with "Sync password" on pushes the person's password in the create, a PUT and a PATCH. */
describe.each(aboveModelDatabases)("SCIM passwords as Okta pushes them (%s)", (kind) => {
  let t: TestApp;
  let mail: RunningMailStandIn;
  let token = "";
  const call = (url: string, method: "GET" | "POST" | "PUT" | "PATCH", body?: unknown) =>
    scim(t.app, token, url, { method, ...(body === undefined ? {} : { body }) });
  const canSignIn = async (username: string, password: string) =>
    (await postJson(t.app, "/api/auth", { username, password })).statusCode === 200;
  const auditReasons = async (userId: string) =>
    (
      await t.app.db
        .selectFrom("audit_events")
        .select("reason")
        .where("user_id", "=", userId)
        .where("event_type", "=", "password_change")
        .orderBy("occurred_at")
        .execute()
    ).map((row) => row.reason);

  beforeAll(async () => {
    mail = await startTestMail();
    t = await createTestApp(kind, { SMTP_URL: mail.smtpUrl }, { protocols: ["scim"] });
    token = await scimToken(t.app, "okta");
  });
  afterAll(async () => {
    await t?.close();
    await mail?.close();
  });

  it("advertises changePassword, and the person Okta creates with a password signs in with it", async () => {
    const config = (await call("/ServiceProviderConfig", "GET")).json<{ changePassword: { supported: boolean } }>();
    expect(config.changePassword.supported).toBe(true);
    const created = await call("/Users", "POST", okta.createUserWithPassword("p.okta@kpi.ua", "00u-p1", firstPassword));
    expect(created.statusCode, created.body).toBe(201);
    const user = created.json<UserBody>();
    expect(user.password).toBeUndefined();
    expect(created.body).not.toContain(firstPassword);
    const row = await t.app.db
      .selectFrom("users")
      .select(["password_hash", "scim_attributes"])
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(JSON.stringify(row.scim_attributes ?? null)).not.toContain(firstPassword);
    expect(await canSignIn("p.okta@kpi.ua", firstPassword)).toBe(true);
    expect(await auditReasons(user.id)).toEqual(["scim_set"]);

    // No verified address yet: the notice goes to the primary address Okta pushed, in the person's language
    // (Okta's `locale: "uk-UA"`), naming the account and who set it, never the password.
    const notice = await mail.inbox.waitFor((message) => message.to.includes("p.okta@kpi.ua"));
    await settle();
    expect(mail.inbox.to("p.okta@kpi.ua")).toHaveLength(1);
    expect(notice.subject).toBe("Для облікового запису KPI ID задано пароль");
    expect(notice.language).toBe("uk");
    expect(notice.text).toContain("(okta)");
    expect(notice.text).toContain("логін p.okta@kpi.ua");
    expect(notice.text).toContain(t.config.support.email);
    expect(`${notice.subject}${notice.text}${notice.html}`).not.toContain(firstPassword);
  });

  it("tells only the primary address of several pushed, in the language the account system gives", async () => {
    const before = mail.inbox.messages.length;
    const body = {
      ...okta.createUserWithPassword("k.okta@kpi.ua", "00u-k", firstPassword),
      emails: [
        { value: "kateryna.home@example.com", type: "home" },
        { value: "k.okta@kpi.ua", type: "work", primary: true },
      ],
      preferredLanguage: "en-GB",
    };
    expect((await call("/Users", "POST", body)).statusCode).toBe(201);
    const notice = await mail.inbox.waitFor((message) => message.to.includes("k.okta@kpi.ua"), before);
    await settle();
    expect(mail.inbox.messages.slice(before).map((message) => message.to)).toEqual([["k.okta@kpi.ua"]]);
    expect(mail.inbox.to("kateryna.home@example.com")).toEqual([]);
    expect(notice.subject).toBe("A password was set for your KPI ID account");
    expect(notice.text).toContain("If you did not expect this");
    expect(`${notice.text}${notice.html}`).not.toContain(firstPassword);
  });

  it("a PATCH of the password of a person with no verified address tells the pushed address", async () => {
    const user = (await call("/Users", "POST", okta.createUser("n.okta@kpi.ua", "00u-n"))).json<UserBody>();
    await settle();
    expect(mail.inbox.to("n.okta@kpi.ua")).toEqual([]);
    const before = mail.inbox.messages.length;
    const patched = await call(`/Users/${user.id}`, "PATCH", okta.changePassword(secondPassword));
    expect(patched.statusCode, patched.body).toBe(200);
    const notice = await mail.inbox.waitFor((message) => message.to.includes("n.okta@kpi.ua"), before);
    expect(notice.subject).toBe("Для облікового запису KPI ID задано пароль");
    expect(`${notice.text}${notice.html}`).not.toContain(secondPassword);

    // Changed again: the notice says the previous password no longer works.
    const again = mail.inbox.messages.length;
    expect((await call(`/Users/${user.id}`, "PATCH", okta.changePassword(firstPassword))).statusCode).toBe(200);
    const second = await mail.inbox.waitFor((message) => message.to.includes("n.okta@kpi.ua"), again);
    expect(second.text).toContain("Попередній пароль більше не діє");
    await settle();
    expect(mail.inbox.to("n.okta@kpi.ua")).toHaveLength(2);
  });

  it("a PATCH that moves the address and sets the password tells the new address, not the old", async () => {
    const user = (await call("/Users", "POST", okta.createUser("a.okta@kpi.ua", "00u-a"))).json<UserBody>();
    const before = mail.inbox.messages.length;
    const emails = [{ value: "a.new@kpi.ua", type: "work", primary: true }];
    const patch = {
      schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
      Operations: [
        { op: "replace", path: "emails", value: emails },
        { op: "replace", value: { password: secondPassword } },
      ],
    };
    const patched = await call(`/Users/${user.id}`, "PATCH", patch);
    expect(patched.statusCode, patched.body).toBe(200);
    await mail.inbox.waitFor((message) => message.to.includes("a.new@kpi.ua"), before);
    await settle();
    expect(mail.inbox.messages.slice(before).map((message) => message.to)).toEqual([["a.new@kpi.ua"]]);
  });

  it("a PATCH replace of the password (no path) and a full PUT change it, audited, the person told by mail", async () => {
    const user = (
      await call("/Users", "POST", okta.createUserWithPassword("m.okta@kpi.ua", "00u-p2", firstPassword))
    ).json<UserBody>();
    await t.app.db.updateTable("users").set({ verified_email: "m.okta@kpi.ua" }).where("id", "=", user.id).execute();
    const before = mail.inbox.messages.length;
    const patched = await call(`/Users/${user.id}`, "PATCH", okta.changePassword(secondPassword));
    expect(patched.statusCode, patched.body).toBe(200);
    expect(await canSignIn("m.okta@kpi.ua", firstPassword)).toBe(false);
    expect(await canSignIn("m.okta@kpi.ua", secondPassword)).toBe(true);
    const notice = await mail.inbox.waitFor((message) => message.to.includes("m.okta@kpi.ua"), before);
    expect(notice.subject).toBe("Для облікового запису KPI ID задано пароль");
    expect(notice.text).not.toContain(secondPassword);
    const put = await call(
      `/Users/${user.id}`,
      "PUT",
      okta.replaceUserWithPassword(user.id, "m.okta@kpi.ua", "00u-p2", firstPassword),
    );
    expect(put.statusCode, put.body).toBe(200);
    expect(await canSignIn("m.okta@kpi.ua", firstPassword)).toBe(true);
    expect(await auditReasons(user.id)).toEqual(["scim_set", "scim_changed", "scim_changed"]);
  });

  it("never sets the password of a person who holds a console role, by PATCH or by PUT", async () => {
    const user = (
      await call("/Users", "POST", okta.createUserWithPassword("o.okta@kpi.ua", "00u-p3", firstPassword))
    ).json<UserBody>();
    await t.app.db.insertInto("operator_roles").values({ user_id: user.id, role: "admin" }).execute();
    const patched = await call(`/Users/${user.id}`, "PATCH", okta.changePassword(secondPassword));
    expect(patched.statusCode).toBe(400);
    expect(patched.json<ErrorBody>().scimType).toBe("mutability");
    const put = await call(
      `/Users/${user.id}`,
      "PUT",
      okta.replaceUserWithPassword(user.id, "o.okta@kpi.ua", "00u-p3", secondPassword),
    );
    expect(put.statusCode).toBe(400);
    expect(await canSignIn("o.okta@kpi.ua", secondPassword)).toBe(false);
    expect(await canSignIn("o.okta@kpi.ua", firstPassword)).toBe(true);
  });

  it("a password the policy refuses is a 400 invalidValue naming the rule, and no one is created", async () => {
    for (const [password, rule] of [
      ["tiny1", /too short/],
      ["password123", /easy to guess/],
    ] as const) {
      const refused = await call("/Users", "POST", okta.createUserWithPassword("weak@kpi.ua", "00u-weak", password));
      expect(refused.statusCode).toBe(400);
      const body = refused.json<ErrorBody>();
      expect([body.schemas, body.scimType]).toEqual([[scimErrorSchema], "invalidValue"]);
      expect(body.detail).toMatch(/^password: /);
      expect(body.detail).toMatch(rule);
      expect(body.detail).not.toContain(password);
    }
    const weak = await t.app.db.selectFrom("users").select("id").where("username", "=", "weak@kpi.ua").execute();
    expect(weak).toEqual([]);
  });
});

describe.each(aboveModelDatabases)("SCIM_PASSWORDS=ignore and refuse (%s)", (kind) => {
  it("ignore: the person is made without a password, told nothing, and the log line never holds the value", async () => {
    const lines: string[] = [];
    const mail = await startTestMail();
    const t = await createTestApp(
      kind,
      { SCIM_PASSWORDS: "ignore", LOG_LEVEL: "info", SMTP_URL: mail.smtpUrl },
      { protocols: ["scim"], logStream: { write: (line: string) => lines.push(line) } },
    );
    try {
      const token = await scimToken(t.app, "okta");
      const config = await scim(t.app, token, "/ServiceProviderConfig");
      expect(config.json<{ changePassword: { supported: boolean } }>().changePassword.supported).toBe(false);
      const body = okta.createUserWithPassword("i.okta@kpi.ua", "00u-i", firstPassword);
      const created = await scim(t.app, token, "/Users", { method: "POST", body });
      expect(created.statusCode, created.body).toBe(201);
      const row = await t.app.db
        .selectFrom("users")
        .select("password_hash")
        .where("username", "=", "i.okta@kpi.ua")
        .executeTakeFirstOrThrow();
      expect(row.password_hash).toBeNull();
      expect(lines.filter((line) => line.includes("SCIM password ignored"))).toHaveLength(1);
      expect(lines.join("\n")).not.toContain(firstPassword);
      const patched = await scim(t.app, token, `/Users/${created.json<UserBody>().id}`, {
        method: "PATCH",
        body: okta.changePassword(secondPassword),
      });
      expect(patched.statusCode).toBe(200);
      await settle();
      expect(mail.inbox.messages).toEqual([]);
    } finally {
      await t.close();
      await mail.close();
    }
  });

  it("refuse: create, PUT and PATCH with a password answer 400 mutability as before", async () => {
    const t = await createTestApp(kind, { SCIM_PASSWORDS: "refuse" }, { protocols: ["scim"] });
    try {
      const token = await scimToken(t.app, "okta");
      const refusedCreate = await scim(t.app, token, "/Users", {
        method: "POST",
        body: okta.createUserWithPassword("r.okta@kpi.ua", "00u-r", firstPassword),
      });
      expect([refusedCreate.statusCode, refusedCreate.json<ErrorBody>().scimType]).toEqual([400, "mutability"]);
      const user = (
        await scim(t.app, token, "/Users", { method: "POST", body: okta.createUser("r.okta@kpi.ua", "00u-r") })
      ).json<UserBody>();
      for (const [method, body] of [
        ["PATCH", okta.changePassword(firstPassword)],
        ["PUT", okta.replaceUserWithPassword(user.id, "r.okta@kpi.ua", "00u-r", firstPassword)],
      ] as const) {
        const refused = await scim(t.app, token, `/Users/${user.id}`, { method, body });
        expect([refused.statusCode, refused.json<ErrorBody>().detail]).toEqual([
          400,
          expect.stringContaining("SCIM_PASSWORDS=refuse"),
        ]);
      }
    } finally {
      await t.close();
    }
  });
});
