import {
  type DeveloperApplicationInput,
  type DeveloperCredentials,
  type DeveloperRole,
  developerMembershipsSchema,
  type ReviewDecision,
  reviewQueueSchema,
} from "@kpi-id/contracts";
import type { FastifyInstance } from "fastify";
import { postJson } from "./app.ts";
import { addPerson } from "./campus.ts";
import { sessionCookieOf } from "./console.ts";

let studentCount = 0;

/** A person studying now (so DEVELOPER_AFFILIATIONS' default lets them register) and a fresh session of theirs. */
export async function addStudent(app: FastifyInstance, name = "student") {
  studentCount += 1;
  const username = `${name}${studentCount}`;
  const person = await addPerson(
    app,
    { username, fullName: `Студент ${studentCount}`, email: `${username}@kpi.ua` },
    "developer passphrase 1",
  );
  await app.db
    .insertInto("student_records")
    .values({ user_id: person.id, student_id: `KV-${studentCount}`, status: "studying", source: "csv" })
    .execute();
  return { person, username, cookie: await sessionCookieOf(app, person.id, "PASSWORD") };
}

export const sampleApplication: DeveloperApplicationInput = {
  title: "Розклад",
  titleEn: "Timetable",
  description: "Розклад занять групи",
  descriptionEn: "A group's timetable",
  callbackUrls: ["http://localhost:5173/callback"],
  redirectUris: ["https://timetable.example.edu/oidc"],
  scopes: ["openid", "profile"],
};

/** Registers an application as this person from the developers' page; throws unless it worked. */
export async function registerApplication(
  app: FastifyInstance,
  cookie: string,
  input: DeveloperApplicationInput = sampleApplication,
  // A listening test server has a public URL of its own, which the CSRF check wants as Origin.
  origin?: string,
): Promise<DeveloperCredentials> {
  const headers = origin ? { cookie, origin } : { cookie };
  const response = await postJson(app, "/api/developers/applications", input, { headers });
  if (response.statusCode !== 200) throw new Error(`registration failed: ${response.statusCode} ${response.body}`);
  return response.json();
}

/** The request an operator reads in the review queue for this application (its review or its pending change). */
export async function queuedRequestId(app: FastifyInstance, adminCookie: string, applicationId: string) {
  const queue = reviewQueueSchema.parse(
    (await app.inject({ url: "/api/admin/reviews", headers: { cookie: adminCookie } })).json(),
  );
  const request = queue.reviews.find((review) => review.applicationId === applicationId);
  if (!request) throw new Error(`nothing in the review queue for ${applicationId}`);
  return request.requestId;
}

/** An operator's decision on what the queue shows for the application, as the console sends it. */
export async function decideQueued(
  app: FastifyInstance,
  adminCookie: string,
  applicationId: string,
  decision: { decision: "approved" } | { decision: "rejected"; reason: string },
) {
  const requestId = await queuedRequestId(app, adminCookie, applicationId);
  const body: ReviewDecision = { ...decision, requestId };
  return postJson(app, `/api/admin/reviews/${applicationId}`, body, { headers: { cookie: adminCookie } });
}

/**
 * Makes `person` a co-owner or tester the way people do it (issue 56): an owner invites them by username and
 * they accept on their developers' page. Throws unless both steps worked.
 */
export async function addMember(
  app: FastifyInstance,
  applicationId: string,
  role: DeveloperRole,
  owner: { cookie: string },
  person: { username: string; cookie: string },
): Promise<void> {
  const path = `/api/developers/applications/${applicationId}/${role}s`;
  const invited = await postJson(app, path, { person: person.username }, { headers: { cookie: owner.cookie } });
  if (invited.statusCode !== 200) throw new Error(`invitation failed: ${invited.statusCode} ${invited.body}`);
  const mine = await app.inject({ url: "/api/developers/invitations", headers: { cookie: person.cookie } });
  const invitation = developerMembershipsSchema.parse(mine.json()).invitations.find((each) => each.role === role);
  if (!invitation) throw new Error(`no invitation reached ${person.username}`);
  const accept = `/api/developers/invitations/${invitation.id}/accept`;
  const accepted = await postJson(app, accept, {}, { headers: { cookie: person.cookie } });
  if (accepted.statusCode !== 200) throw new Error(`acceptance failed: ${accepted.statusCode} ${accepted.body}`);
}
