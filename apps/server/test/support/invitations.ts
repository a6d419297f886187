import { developerMembershipsSchema } from "@kpi-id/contracts";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll } from "vitest";
import type { RunningMailStandIn } from "../../../../sandbox/src/mail/index.ts";
import type { DatabaseKind } from "../../src/platform/db/index.ts";
import { createTestApp, postJson, type TestApp } from "./app.ts";
import { startTestMail } from "./mail.ts";

/**
 * The service the invitation attacks run against (issue 56, points 3 and 4): it mails (an invitation by address, a
 * notice to the invited person) and lets one person own two applications. Registers its own beforeAll and afterAll;
 * `app()` and `mail()` are there once they have run.
 */
export function invitationsTestApp(kind: DatabaseKind) {
  let t: TestApp | undefined;
  let standIn: RunningMailStandIn | undefined;
  beforeAll(async () => {
    standIn = await startTestMail();
    t = await createTestApp(kind, { DEVELOPER_MAX_APPLICATIONS: "2", SMTP_URL: standIn.smtpUrl });
  });
  afterAll(async () => {
    await t?.close();
    await standIn?.close();
  });

  const app = (): FastifyInstance => {
    if (!t) throw new Error("the test app starts in beforeAll");
    return t.app;
  };
  const mail = (): RunningMailStandIn => {
    if (!standIn) throw new Error("the mail stand-in starts in beforeAll");
    return standIn;
  };
  const get = (url: string, cookie: string) => app().inject({ url, headers: { cookie } });
  const post = (url: string, body: unknown, cookie: string) => postJson(app(), url, body, { headers: { cookie } });
  const appUrl = (id: string) => `/api/developers/applications/${id}`;
  /** The invitations a person received, as their developers' page lists them. */
  const invitationsOf = async (cookie: string) =>
    developerMembershipsSchema.parse((await get("/api/developers/invitations", cookie)).json()).invitations;
  return { app, mail, get, post, appUrl, invitationsOf };
}
