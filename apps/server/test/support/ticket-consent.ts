import { type ConsentOutcome, ticketConsentParam, ticketConsentPath } from "@kpi-id/contracts";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll } from "vitest";
import type { DatabaseKind } from "../../src/platform/db/index.ts";
import { createTestApp, postJson, type TestApp } from "./app.ts";
import { grantAccess, manualClock } from "./campus.ts";
import { addStudent, registerApplication } from "./developers.ts";

/**
 * The service the ticket path's consent attacks run against, on a clock moved by hand (a waiting request expires).
 * Registers its own beforeAll and afterAll; `app()` is there once they have run.
 */
export function ticketConsentTestApp(kind: DatabaseKind) {
  const clock = manualClock();
  let t: TestApp | undefined;
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { clock: clock.now });
  });
  afterAll(() => t?.close());
  const app = (): FastifyInstance => {
    if (!t) throw new Error("the test app starts in beforeAll");
    return t.app;
  };
  return { app, clock };
}

/** The app redirect (`/api/app-redirect`) as a signed-in person's browser opens it. */
export function openAppRedirect(app: FastifyInstance, cookie: string, query: Record<string, string>) {
  return app.inject({ url: `/api/app-redirect?${new URLSearchParams(query)}`, headers: { cookie } });
}

/** An application's server redeeming a ticket, as the ticket path's integrations do. */
export function redeemTicket(app: FastifyInstance, appId: string, appSecret: string, ticketId: string) {
  return app.inject({ url: `/api/ticket?${new URLSearchParams({ ticketId, appId, appSecret })}` });
}

/** The ticket id a callback address carries; empty when it carries none. */
export function ticketIdOf(location: string): string {
  return new URL(location).searchParams.get("ticketId") ?? "";
}

/** How many tickets were issued for an application, redeemed or not. */
export async function ticketCountOf(app: FastifyInstance, applicationId: string): Promise<number> {
  const tickets = await app.db
    .selectFrom("tickets")
    .select("user_id")
    .where("application_id", "=", applicationId)
    .execute();
  return tickets.length;
}

/** The waiting request a redirect to the consent screen names, or undefined for any other redirect. */
export function consentRequestOf(response: LightMyRequestResponse): string | undefined {
  const location = String(response.headers.location ?? "");
  if (!/^\/(uk|en)\/consent\?/.test(location)) return undefined;
  return new URL(location, "http://localhost").searchParams.get(ticketConsentParam) ?? undefined;
}

/** Answers the consent screen as the person's browser does; where it sends the browser next. */
export async function answerTicketConsent(
  app: FastifyInstance,
  cookie: string,
  id: string,
  allow: boolean,
): Promise<LightMyRequestResponse & { outcome: () => ConsentOutcome }> {
  const answer = await postJson(app, `${ticketConsentPath}/${id}`, { allow }, { headers: { cookie } });
  return Object.assign(answer, { outcome: () => answer.json() as ConsentOutcome });
}

/**
 * Opens an application the way a person does who agrees when asked: the app redirect, and for a community
 * application not allowed yet, "Allow" on the consent screen. The answer carries the final location.
 */
export async function openAgreeing(app: FastifyInstance, cookie: string, query: Record<string, string>) {
  const redirect = await openAppRedirect(app, cookie, query);
  const id = consentRequestOf(redirect);
  if (!id) return { location: String(redirect.headers.location ?? ""), asked: false };
  const answer = await answerTicketConsent(app, cookie, id, true);
  if (answer.statusCode !== 200) throw new Error(`consent failed: ${answer.statusCode} ${answer.body}`);
  return { location: answer.outcome().redirectTo, asked: true };
}

type Student = Awaited<ReturnType<typeof addStudent>>;

/**
 * A community application registered by `owner` on the developers' page, live (as if operators approved it), that
 * each of `people` may use by an individual grant; callbacks `https://{host}/callback` and `/other`.
 */
export async function liveCommunityApplication(app: FastifyInstance, owner: Student, people: Student[], host: string) {
  const registered = await registerApplication(app, owner.cookie, {
    title: `Спільнота ${host}`,
    titleEn: `Community ${host}`,
    callbackUrls: [`https://${host}/callback`, `https://${host}/other`],
    homePageUrl: `https://${host}/`,
    privacyPolicyUrl: `https://${host}/privacy`,
  });
  const { id } = registered.application;
  await app.db.updateTable("applications").set({ lifecycle: "live" }).where("id", "=", id).execute();
  for (const person of people) await grantAccess(app.db, person.person.id, id);
  return registered;
}

/** An owner, a student who may use the owner's live community application at `host`, and the application. */
export async function studentOfLiveApplication(app: FastifyInstance, host: string) {
  const owner = await addStudent(app, "owner");
  const student = await addStudent(app, "student");
  return { owner, student, ...(await liveCommunityApplication(app, owner, [student], host)) };
}

/** The same, with the consent request waiting since the student first opened the application (with `query`). */
export async function waitingConsentRequest(app: FastifyInstance, host: string, query: Record<string, string> = {}) {
  const live = await studentOfLiveApplication(app, host);
  const opened = await openAppRedirect(app, live.student.cookie, { appId: live.application.id, ...query });
  return { ...live, id: String(consentRequestOf(opened)) };
}
