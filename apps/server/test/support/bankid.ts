import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import type { RunningBankIdStandIn } from "../../../../sandbox/src/bankid/index.ts";
import { insertUser } from "../../src/model/users/queries.ts";
import { demoPeople } from "../../src/surfaces/seed/demo-data.ts";

/** The demo people with their tax ids and documents, as the seed writes them; answers username → id. */
export async function insertDemoPeople(db: FastifyInstance["db"]): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const person of demoPeople) {
    const user = await insertUser(db, {
      username: person.username,
      password_hash: null,
      full_name: person.fullName,
      email: person.email,
      tax_id: person.taxId,
      student_id: null,
      employee_id: null,
      status: "active",
    });
    ids[person.username] = user.id;
    for (const { kind, series = "", number } of person.documents ?? []) {
      await db.insertInto("identity_documents").values({ user_id: user.id, kind, series, number }).execute();
    }
  }
  return ids;
}

export interface StartedBankId {
  location: URL;
  /** The Cookie header the browser sends back (the pending sign-in, and "continue to" when an appId came). */
  cookie: string;
}

export async function startBankIdSignIn(
  app: FastifyInstance,
  query: Record<string, string> = {},
): Promise<StartedBankId> {
  const search = new URLSearchParams(query);
  const response = await app.inject({
    method: "GET",
    url: `/api/bankid/redirect${search.size > 0 ? `?${search}` : ""}`,
    headers: { accept: "application/json" },
  });
  if (response.statusCode !== 302) throw new Error(`redirect answered ${response.statusCode} ${response.body}`);
  return {
    location: new URL(String(response.headers.location)),
    cookie: response.cookies.map((c) => `${c.name}=${encodeURIComponent(c.value)}`).join("; "),
  };
}

/** What the person does at the stand-in: opens the bank's page and picks a persona (or cancels). */
export async function answerAtBank(authorizeUrl: URL, persona: string, bankId = "privatbank") {
  const query = new URLSearchParams(authorizeUrl.searchParams);
  if (!query.has("bank_id")) query.set("bank_id", bankId);
  const page = await fetch(`${authorizeUrl.origin}${authorizeUrl.pathname}?${query}`);
  if (page.status !== 200) throw new Error(`authorize page answered ${page.status}`);
  const form = new URLSearchParams(query);
  form.set("persona", persona);
  const decided = await fetch(`${authorizeUrl.origin}${authorizeUrl.pathname}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form.toString(),
    redirect: "manual",
  });
  const location = decided.headers.get("location");
  if (decided.status !== 302 || !location) throw new Error(`the bank answered ${decided.status}`);
  const back = new URL(location);
  return {
    redirectedTo: back,
    answer: Object.fromEntries(back.searchParams.entries()) as { code?: string; state?: string; error?: string },
  };
}

/** What the /{lang}/bankid-auth page does: a page load of /bankid/auth with what came back. */
export function finishBankIdSignIn(
  app: FastifyInstance,
  answer: Record<string, string | undefined>,
  cookie: string,
  accept = "text/html,application/xhtml+xml",
): Promise<LightMyRequestResponse> {
  const query = new URLSearchParams(Object.entries(answer).filter((entry): entry is [string, string] => !!entry[1]));
  return app.inject({ method: "GET", url: `/bankid/auth?${query}`, headers: { accept, cookie } });
}

/** The product's settings for a running stand-in (as the sandbox gives them). */
export function bankIdSettings(standIn: RunningBankIdStandIn): Record<string, string> {
  return { ...standIn.env };
}

export function bankIdErrorOf(response: LightMyRequestResponse): string | null {
  const location = String(response.headers.location ?? "");
  return new URL(location, "http://localhost").searchParams.get("bankid_auth_error");
}
