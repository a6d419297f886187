import { Browser, call, nextPersonAddress } from "./browser.ts";
import { assumptions, drawShare } from "./campus.ts";
import type { Recorder } from "./open-loop.ts";
import { openWithCas, openWithOidc, openWithTicket } from "./openers.ts";
import { openBehindNginx, openWithSaml } from "./openers-sites.ts";
import type { RushCampus } from "./rush-campus.ts";
import { everySignInWay, signInAfresh } from "./sign-ins.ts";

// What the rush's people, applications, helpdesk and student register do, each request timed under the label
// the step tables print. A step that fails ends that person's morning (as a person who meets an error stops).

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)] as T;

const openers: Record<
  keyof typeof assumptions.protocols,
  (campus: RushCampus, browser: Browser, recorder: Recorder) => Promise<boolean>
> = {
  ticket: openWithTicket,
  oidc: openWithOidc,
  saml: openWithSaml,
  cas: openWithCas,
  forwardAuth: openBehindNginx,
};

/** One person arriving: signed in already or afresh (by one of the methods), then two or three applications. */
export async function arrival(campus: RushCampus, recorder: Recorder): Promise<void> {
  const browser = new Browser(campus.origin, assumptions.ownAddressEach ? nextPersonAddress() : undefined);
  if (Math.random() < assumptions.signingInAfresh) {
    if (!(await signInAfresh(campus, browser, recorder))) return;
  } else {
    const [name = "", value = ""] = campus.nextEarlierSession().split("=");
    browser.cookies.set(name, value);
  }
  const count = pick(assumptions.applicationsEach);
  for (let index = 0; index < count; index++) {
    if (!(await openers[drawShare(assumptions.protocols, "oidc")](campus, browser, recorder))) return;
  }
}

/**
 * Each way of signing in and each protocol once, before the steps (unrecorded, as the warm-up): the code a path
 * loads at its first request (SAML's, the passkey library) is loaded, and a campus set up wrongly shows at once.
 */
export async function everyPathOnce(campus: RushCampus, recorder: Recorder): Promise<void> {
  for (const way of everySignInWay(campus)) {
    const browser = new Browser(campus.origin, assumptions.ownAddressEach ? nextPersonAddress() : undefined);
    if (!(await signInAfresh(campus, browser, recorder, way))) continue;
    for (const open of Object.values(openers)) await open(campus, browser, recorder);
  }
}

/** One search by the helpdesk: a surname, as a person calling in gives theirs. */
export async function helpdeskSearch(campus: RushCampus, recorder: Recorder): Promise<void> {
  await recorder.time("console: people search", async () => {
    const url = `${campus.origin}/api/admin/people?${new URLSearchParams({ q: pick(campus.surnames) })}`;
    return (await call(url, { headers: { cookie: campus.helpdeskCookie } }, [200])).json();
  });
}

let scimCount = 0;

/** One of the day's changes from the student register: a new student. */
export async function scimChange(campus: RushCampus, recorder: Recorder): Promise<void> {
  scimCount += 1;
  const userName = `scim-${process.pid}-${Date.now().toString(36)}-${scimCount}`;
  await recorder.time("scim: create user", async () => {
    const body = {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
      userName,
      name: { givenName: "Олена", familyName: pick(campus.surnames) },
      active: true,
    };
    const init = {
      method: "POST",
      headers: { authorization: `Bearer ${campus.scimToken}`, "content-type": "application/scim+json" },
      body: JSON.stringify(body),
    };
    return (await call(`${campus.origin}/scim/v2/Users`, init, [201])).json();
  });
}
