import { type CasAttributeName, casPaths, type IntegrationHealth, integrationHealthSchema } from "@kpi-id/contracts";
import { DOMParser } from "@xmldom/xmldom";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { type CasServiceSettings, setCasService } from "../../src/model/cas/services.ts";
import { addApplication, grantAccess } from "./campus.ts";
import { addStudent } from "./developers.ts";

/** An operator's application with one CAS service, which `people` may use by an individual grant. */
export async function casApplication(
  app: FastifyInstance,
  url: string,
  options: Partial<Omit<CasServiceSettings, "url" | "applicationId">> & {
    people?: string[];
    requireMfa?: boolean;
  } = {},
) {
  const { application, secret } = await addApplication(app);
  const service = await setCasService(app.db, {
    url,
    applicationId: application.id,
    match: options.match ?? "exact",
    attributes: options.attributes ?? ([] as CasAttributeName[]),
    renames: options.renames ?? {},
    singleLogout: options.singleLogout ?? false,
    proxy: options.proxy ?? false,
  });
  if (options.requireMfa) {
    await app.db.updateTable("applications").set({ require_mfa: true }).where("id", "=", application.id).execute();
  }
  for (const person of options.people ?? []) await grantAccess(app.db, person, application.id);
  return { application, secret, service };
}

/** A student with a password session, and a CAS application they may use. */
export async function studentWithService(
  app: FastifyInstance,
  url: string,
  options: Parameters<typeof casApplication>[2] = {},
) {
  const student = await addStudent(app, "cas");
  const registered = await casApplication(app, url, { ...options, people: [student.person.id] });
  return { student, ...registered };
}

const locationOf = (response: LightMyRequestResponse) => String(response.headers.location ?? "");

/**
 * /cas/login as a browser with this cookie follows it: to /cas/continue/{id} and on. Answers the last response
 * (the one that leaves KPI ID's CAS paths: the service, the sign-in screen, the consent screen) and the path taken.
 */
export async function casLogin(app: FastifyInstance, cookie: string, query: Record<string, string>) {
  let response = await app.inject({ url: `${casPaths.login}?${new URLSearchParams(query)}`, headers: { cookie } });
  const path = [locationOf(response)];
  while (locationOf(response).startsWith(`${casPaths.continue}/`)) {
    response = await app.inject({ url: locationOf(response), headers: { cookie } });
    path.push(locationOf(response));
  }
  return { response, location: locationOf(response), path };
}

/** The `ticket` a redirect to the service carries ("" when none). */
export const ticketIn = (location: string) =>
  URL.canParse(location) ? (new URL(location).searchParams.get("ticket") ?? "") : "";

/** Signs in to the service and answers the service ticket; throws when the login does not end at the service. */
export async function serviceTicket(
  app: FastifyInstance,
  cookie: string,
  service: string,
  extra: Record<string, string> = {},
) {
  const { location } = await casLogin(app, cookie, { service, ...extra });
  const ticket = ticketIn(location);
  if (!ticket) throw new Error(`no ticket: the login ended at ${location}`);
  return ticket;
}

export async function validateAt(app: FastifyInstance, path: string, query: Record<string, string>) {
  return app.inject({ url: `${path}?${new URLSearchParams(query)}` });
}

/** A CAS XML answer read as CAS clients read it: the first element of each name in the CAS namespace. */
export function casXml(body: string) {
  const document = new DOMParser().parseFromString(body, "application/xml");
  const cas = "http://www.yale.edu/tp/cas";
  const all = (name: string) => Array.from(document.getElementsByTagNameNS(cas, name));
  return {
    text: (name: string) => all(name)[0]?.textContent ?? undefined,
    texts: (name: string) => all(name).map((element) => element.textContent ?? ""),
    failureCode: () =>
      all("authenticationFailure")[0]?.getAttribute("code") ??
      all("proxyFailure")[0]?.getAttribute("code") ??
      undefined,
    root: document.documentElement?.localName,
  };
}

/**
 * An owner for the application, and its integration health as that owner's developers' page loads it
 * (GET /api/developers/applications/{id}/health), each time it is called.
 */
export async function ownerHealth(app: FastifyInstance, applicationId: string) {
  const owner = await addStudent(app, "owner");
  await app.db
    .insertInto("application_owners")
    .values({ application_id: applicationId, user_id: owner.person.id })
    .execute();
  return async (): Promise<IntegrationHealth> => {
    const response = await app.inject({
      url: `/api/developers/applications/${applicationId}/health`,
      headers: { cookie: owner.cookie },
    });
    if (response.statusCode !== 200) throw new Error(`health: ${response.statusCode} ${response.body}`);
    return integrationHealthSchema.parse(response.json());
  };
}

/** Today's sign-ins (UTC) in a health answer. */
export const signInsToday = (health: IntegrationHealth) => health.signInsPerDay.at(-1)?.signIns;
