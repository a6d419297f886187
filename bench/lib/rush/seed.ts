import { randomBytes } from "node:crypto";
import {
  addAuthenticator,
  addOidcClient,
  addOperator,
  createApplication,
  createTestApp,
  hashToken,
  sessionCookieOf,
  setCasService,
  type TestApp,
} from "@kpi-id/server/testing";
import { sql } from "kysely";
import { addPopulation, surnames } from "../population.ts";
import type { Campus } from "./campus.ts";
import type { RushCampus } from "./rush-campus.ts";
import { addDevices, addPasskeys, addSamlAndNginxSites, addStandInPeople, standInUsernames } from "./seed-methods.ts";

// The campus in a scratch PostgreSQL database, made fast: the people in bulk statements (population.ts), one real
// argon2id hash of the bench password for all of them (each sign-in still verifies it in full), access to the
// applications for everyone in one statement each, and the service's own functions for the rest.

const password = "rush hour passphrase 2026";
/** People given an authenticator app (each code works once per time step: enough that none repeats in a step). */
const withAuthenticator = 400;
/** People given a passkey (each use must raise its counter: enough that two uses of one never overlap). */
const withPasskey = 400;
/** Devices given a Wi-Fi password (they join over and over: KPI ID's work is the same for each join). */
const devicesSeeded = 400;
/** Sessions from an earlier day that arriving people still hold. */
const earlierSessions = 1_000;
const redirectUri = "https://lms.kpi.ua/oidc/callback";
const casService = "https://library.kpi.ua/cas/login";

export interface SeededCampus {
  setup: TestApp;
  /** What FreeRADIUS presents to KPI ID's RADIUS endpoint (RADIUS_REST_SECRET): the server must be given it. */
  radiusRestSecret: string;
  /** Everything but the origin, which is the server's, started afterwards (and the stand-ins, started apart). */
  campus: (origin: string) => RushCampus;
}

const cycling = <T>(list: readonly T[]) => {
  let index = 0;
  return () => list[index++ % list.length] as T;
};

export async function seedCampus(campus: Campus, publicUrl: string, sessionSecret: string): Promise<SeededCampus> {
  const radiusRestSecret = randomBytes(32).toString("base64url");
  const setup = await createTestApp("postgres", {
    PUBLIC_URL: publicUrl,
    SESSION_SECRET: sessionSecret,
    RADIUS_REST_SECRET: radiusRestSecret,
  });
  const { app } = setup;
  const people = Math.round(campus.students + campus.staff);
  await addPopulation(app, people);
  const hash = await app.passwordHasher.hash(password);
  await sql`update users set password_hash = ${hash} where status = 'active'`.execute(app.db);
  const ticket = await createApplication(app.db, {
    name: "campus-portal",
    title: "Campus portal",
    description: "The student portal (ticket protocol)",
    callbackUrl: "https://portal.kpi.ua/kpi-id/callback",
  });
  const oidc = await addOidcClient(app, {
    redirectUris: [redirectUri],
    scopes: ["openid", "profile", "offline_access"],
    firstParty: true,
  });
  const cas = await createApplication(app.db, {
    name: "library",
    title: "Library",
    description: "The library (CAS)",
    callbackUrl: casService,
  });
  await setCasService(app.db, {
    url: casService,
    applicationId: cas.application.id,
    match: "exact",
    attributes: [],
    renames: {},
    singleLogout: false,
    proxy: false,
  });
  await addStandInPeople(app, password);
  const sites = await addSamlAndNginxSites(app);
  for (const applicationId of [
    ticket.application.id,
    oidc.application.id,
    cas.application.id,
    ...sites.applicationIds,
  ]) {
    await sql`insert into user_applications (user_id, application_id)
      select id, ${applicationId}::uuid from users where status = 'active'`.execute(app.db);
  }
  await sql`analyze`.execute(app.db);
  const active = await app.db
    .selectFrom("users")
    .select(["id", "username"])
    .where("status", "=", "active")
    .where("username", "not in", standInUsernames)
    .orderBy("username")
    .execute();
  // A small campus keeps most of its people for password-only sign-ins.
  const secondFactor = active.slice(0, Math.min(withAuthenticator, Math.floor(active.length / 4)));
  const codes = new Map<string, (when: Date) => Promise<string>>();
  // Set up minutes ago, so the code each used then is of a time step the rush never asks again.
  const setUpAt = new Date(Date.now() - 5 * 60_000);
  for (const person of secondFactor) codes.set(person.username, await addAuthenticator(app, person, setUpAt));
  const quarter = Math.floor(active.length / 4);
  const passkeyPeople = active.slice(secondFactor.length, secondFactor.length + Math.min(withPasskey, quarter));
  const passkeys = await addPasskeys(app, passkeyPeople, publicUrl);
  const devices = await addDevices(app, active.slice(-Math.min(devicesSeeded, quarter)), publicUrl);
  const passwordOnly = active.slice(secondFactor.length + passkeyPeople.length).map((person) => person.username);
  const sessions: string[] = [];
  for (const person of active.slice(-earlierSessions)) sessions.push(await sessionCookieOf(app, person.id, "PASSWORD"));
  const helpdesk = await addOperator(app, ["helpdesk"]);
  const scimToken = `kpiscim_${randomBytes(32).toString("base64url")}`;
  await app.db
    .insertInto("scim_tokens")
    .values({ name: "student register", token_hash: hashToken(scimToken).toString("hex") })
    .execute();
  const nextPerson = cycling(passwordOnly);
  const nextCoded = cycling(secondFactor);
  const nextWithPasskey = cycling(passkeys);
  return {
    setup,
    radiusRestSecret,
    campus: (origin) => ({
      origin,
      password,
      nextPerson,
      nextWithSecondFactor: () => {
        const { username } = nextCoded();
        const codeAt = codes.get(username);
        if (!codeAt) throw new Error(`no authenticator for ${username}`);
        return { username, code: () => codeAt(new Date()) };
      },
      nextWithPasskey,
      nextDevice: cycling(devices),
      nextEarlierSession: cycling(sessions),
      ticketApplication: { id: ticket.application.id, secret: ticket.secret },
      oidcClient: { id: oidc.application.id, secret: oidc.secret, redirectUri },
      casService,
      samlServiceProvider: sites.samlServiceProvider,
      protectedSite: sites.protectedSite,
      helpdeskCookie: helpdesk.cookie,
      scimToken,
      surnames,
    }),
  };
}
