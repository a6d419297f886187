import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningMailStandIn, startMailSandbox, startMailStandIn } from "../src/mail/index.ts";

describe("mail stand-in", () => {
  let standIn: RunningMailStandIn;

  beforeAll(async () => {
    standIn = await startMailStandIn({ port: 0 });
  });
  afterAll(() => standIn.close());

  it("receives over SMTP what nodemailer sends to SMTP_URL and shows it on the inbox page, text and HTML", async () => {
    expect(standIn.env).toEqual({ SMTP_URL: standIn.smtpUrl, MAIL_SANDBOX: "true" });
    const transport = nodemailer.createTransport(standIn.smtpUrl);
    await transport.sendMail({
      from: "KPI ID <no-reply@kpi.ua>",
      to: "olena@kpi.ua",
      subject: "Пароль KPI ID змінено",
      text: "Пароль змінено.",
      html: '<html lang="uk"><p>Пароль <b>змінено</b>.</p><script>alert(1)</script></html>',
    });
    transport.close();
    const mail = await standIn.inbox.waitFor((message) => message.to.includes("olena@kpi.ua"));
    expect(mail).toMatchObject({ subject: "Пароль KPI ID змінено", text: "Пароль змінено.", language: "uk" });

    const inbox = await (await fetch(standIn.url)).text();
    expect(inbox).toContain(`href="/messages/${mail.id}"`);
    expect(inbox).toContain("Пароль KPI ID змінено");
    const page = await (await fetch(`${standIn.url}/messages/${mail.id}`)).text();
    expect(page).toContain("Пароль змінено.");
    // The HTML is shown in a sandboxed frame, escaped into srcdoc: its script cannot run in the inbox.
    expect(page).toContain('<iframe title="The message as HTML" sandbox srcdoc="');
    expect(page).not.toContain("<script>alert(1)</script>");
    const listed = (await (await fetch(`${standIn.url}/api/messages?to=olena@kpi.ua`)).json()) as {
      messages: unknown[];
    };
    expect(listed.messages).toHaveLength(1);
  });

  it("starts in the sandbox only when no real mail relay is configured", async () => {
    const skipped = await startMailSandbox({
      productUrl: "http://localhost:3999",
      dataDir: "/tmp",
      mailPort: 0,
      env: { SMTP_URL: "smtps://relay.kpi.ua:465" },
    });
    expect(skipped).toBeUndefined();
  });
});
