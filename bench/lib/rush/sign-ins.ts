import { Browser, call, HttpError, sent } from "./browser.ts";
import { assumptions, drawShare } from "./campus.ts";
import type { Recorder } from "./open-loop.ts";
import type { RushCampus } from "./rush-campus.ts";

// How a person arriving without a session signs in (assumptions.signInMethods): each way is one row of the step
// tables, timed from the first request to the session cookie, stand-ins' pages included (as the person waits).
// A way through a stand-in (Google, Diia, BankID) is also timed request by request: KPI ID's own requests are rows
// the step's p99 holds to, the whole journey (the stand-in's pages and DSTU signatures in it) a row for information.

type Method = keyof typeof assumptions.signInMethods;

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)] as T;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const form = (fields: Record<string, string>) => ({
  method: "POST",
  body: new URLSearchParams(fields),
  headers: { "content-type": "application/x-www-form-urlencoded" },
});

function noteSession(campus: RushCampus, browser: Browser): void {
  const session = [...browser.cookies].find(([name]) => name.endsWith("kpi_id_session"));
  if (!session) throw new HttpError("no session cookie after signing in");
  campus.onSignedIn?.(`${session[0]}=${session[1]}`);
}

type SignIn = (campus: RushCampus, browser: Browser, recorder: Recorder) => Promise<void>;

async function passwordSignIn(campus: RushCampus, browser: Browser, withCode: boolean): Promise<void> {
  const person = withCode ? campus.nextWithSecondFactor() : { username: campus.nextPerson(), code: undefined };
  const auth = await browser.postJson("/api/auth", { username: person.username, password: campus.password });
  const grant = (await auth.json()) as { sessionId: string; secondFactor?: string };
  if (person.code) {
    if (grant.secondFactor !== "totp") throw new HttpError("no second factor asked of a person who has one");
    await (await browser.postJson("/api/auth/second-factor", { ...grant, code: await person.code() })).text();
  }
  await (await browser.postJson("/api/auth/internal", { sessionId: grant.sessionId })).text();
}

const password = (campus: RushCampus, browser: Browser) => passwordSignIn(campus, browser, false);
const passwordWithCode = (campus: RushCampus, browser: Browser) => passwordSignIn(campus, browser, true);

/** A WebAuthn assertion by the person's (software) authenticator to a discoverable-credential challenge. */
async function passkey(campus: RushCampus, browser: Browser): Promise<void> {
  const authenticator = campus.nextWithPasskey?.();
  if (!authenticator) throw new HttpError("no passkeys seeded");
  const options = (await (await browser.postJson("/api/auth/passkey/options", {})).json()) as {
    options: { challenge: string };
  };
  const response = authenticator.authenticate(options.options);
  await (await browser.postJson("/api/auth/passkey", { response })).text();
}

/** KPI ID to the Google stand-in, its account chooser, and back to /google/auth (as the /google-auth page calls it). */
async function google(campus: RushCampus, browser: Browser, recorder: Recorder): Promise<void> {
  const standIn = campus.standIns?.google;
  if (!standIn) throw new HttpError("no Google stand-in");
  const atGoogle = await recorder.part("google: redirect", () => browser.leave("/api/google/redirect"));
  const provider = new Browser(standIn.origin, undefined, false);
  const redirected = async (response: Response, from: URL) => {
    await response.arrayBuffer();
    return new URL(response.headers.get("location") ?? "", from);
  };
  const chooser = await redirected(await provider.request(atGoogle.href, {}, [302, 303]), atGoogle);
  await (await provider.request(chooser.href)).text();
  const chosen = form({ sub: pick(standIn.accounts) });
  const resume = await redirected(await provider.request(`${chooser.pathname}/login`, chosen, [302, 303]), chooser);
  const back = await provider.leave(resume.href);
  // KPI ID exchanges the code with the stand-in and checks its ID token while the person waits.
  await recorder.part("google: auth (code exchange)", async () =>
    (await browser.request(`/google/auth${back.search}`)).json(),
  );
}

/** The partner's callback as the Diia stand-in timed it (its `Server-Timing: callback;dur=…`), ms. */
function callbackMs(response: Response): number | undefined {
  const match = /(?:^|,)\s*callback;dur=([\d.]+)/.exec(response.headers.get("server-timing") ?? "");
  return match?.[1] ? Number(match[1]) : undefined;
}

const phoneLabel = "diia: the phone signs (stand-in)";

/** The QR link, the phone signing with the person's DSTU key (the stand-in posts the callback), polls, the grant. */
async function diia(campus: RushCampus, browser: Browser, recorder: Recorder): Promise<void> {
  const standIn = campus.standIns?.diia;
  if (!standIn) throw new HttpError("no Diia stand-in");
  // KPI ID asks the stand-in's partner API for the deep link and stores the request.
  const link = await recorder.part(
    "diia: app-link",
    async () => (await (await browser.request("/api/diia/app-link")).json()) as { deepLink: string; requestId: string },
  );
  const fields = { action: "confirm", person: pick(standIn.people) };
  const phoneBegan = performance.now();
  const confirmed = await call(link.deepLink, form(fields), [200], false);
  await confirmed.text();
  const phoneMs = performance.now() - phoneBegan;
  sent.requests += 1; // the stand-in's callback to KPI ID, made while the phone waited
  // The phone's answer waits for the callback (the stand-in delivers it before it answers), which KPI ID's DSTU
  // checks answer: that request is KPI ID's, the rest of the phone's time the stand-in's signing.
  const callback = callbackMs(confirmed);
  if (callback === undefined) throw new HttpError("the Diia stand-in did not say how long the callback took");
  recorder.record("diia: callback (timed by the stand-in)", callback);
  recorder.informative.add(phoneLabel);
  recorder.record(phoneLabel, Math.max(0, phoneMs - callback));
  for (let poll = 0; poll < 60; poll++) {
    const answer = await recorder.part(
      "diia: check-request",
      async () =>
        (await (await browser.request(`/api/diia/check-request?requestId=${link.requestId}`)).json()) as {
          status: string;
          sessionId?: string;
        },
    );
    if (answer.sessionId) {
      const { sessionId } = answer;
      await recorder.part("diia: grant exchange", async () =>
        (await browser.postJson("/api/auth/internal", { sessionId })).text(),
      );
      return;
    }
    if (answer.status !== "Processing") throw new HttpError(`Diia request ${answer.status}`);
    await sleep(250);
  }
  throw new HttpError("Diia request still Processing after 60 polls");
}

/** KPI ID to NBU's node with a bank chosen, the bank's persona page, and back to /bankid/auth. */
async function bankId(campus: RushCampus, browser: Browser, recorder: Recorder): Promise<void> {
  const standIn = campus.standIns?.bankId;
  if (!standIn) throw new HttpError("no BankID stand-in");
  const atNode = await recorder.part("bankid: redirect", () =>
    browser.leave(`/api/bankid/redirect?bank=${pick(standIn.banks)}`),
  );
  const node = new Browser(atNode.origin, undefined, false);
  await (await node.request(atNode.href)).text();
  const asked = atNode.searchParams;
  const fields = {
    client_id: asked.get("client_id") ?? "",
    redirect_uri: asked.get("redirect_uri") ?? "",
    bank_id: asked.get("bank_id") ?? "",
    state: asked.get("state") ?? "",
    persona: pick(standIn.personas),
  };
  const answered = await node.request(atNode.pathname, form(fields), [302]);
  await answered.arrayBuffer();
  const back = new URL(answered.headers.get("location") ?? "", atNode);
  if (!back.searchParams.get("code")) throw new HttpError(`BankID answered no code: ${back.search}`);
  // KPI ID exchanges the code with the bank stand-in, which makes its DSTU envelope while KPI ID waits; KPI ID then
  // decrypts it and checks the bank's signature.
  await recorder.part("bankid: auth (code exchange, envelope)", async () =>
    (await browser.request(`/bankid/auth${back.search}`)).json(),
  );
}

/** `throughStandIn`: the journey's row is for information; its KPI ID requests are rows of their own. */
const methods: Record<Method, { label: string; signIn: SignIn; throughStandIn?: true }> = {
  password: { label: "sign-in: password", signIn: password },
  passkey: { label: "sign-in: passkey", signIn: passkey },
  google: { label: "sign-in: Google (journey)", signIn: google, throughStandIn: true },
  diia: { label: "sign-in: Diia (journey)", signIn: diia, throughStandIn: true },
  bankid: { label: "sign-in: BankID (journey)", signIn: bankId, throughStandIn: true },
};

/** A campus without the stand-ins or passkeys (the failover's) signs those people in with a password instead. */
function available(campus: RushCampus, method: Method): boolean {
  if (method === "passkey") return campus.nextWithPasskey !== undefined;
  if (method === "password") return true;
  return campus.standIns !== undefined;
}

/** The ways a person signs in: each method, and the password with an authenticator code. */
export type SignInWay = Method | "passwordWithCode";

/** The next way drawn by the shares (a method the campus cannot offer falls back to the password). */
export function drawSignInWay(campus: RushCampus): SignInWay {
  const drawn = drawShare(assumptions.signInMethods, "password");
  const method = available(campus, drawn) ? drawn : "password";
  return method === "password" && Math.random() < assumptions.withSecondFactor ? "passwordWithCode" : method;
}

/** The ways this campus offers, each once (the rush's warm-up). */
export function everySignInWay(campus: RushCampus): SignInWay[] {
  const offered = (Object.keys(methods) as Method[]).filter((method) => available(campus, method));
  return [...offered, "passwordWithCode"];
}

/** Signs the person in (by the way drawn unless given); false when it failed (the failure is recorded). */
export async function signInAfresh(
  campus: RushCampus,
  browser: Browser,
  recorder: Recorder,
  way: SignInWay = drawSignInWay(campus),
): Promise<boolean> {
  const { label, signIn, throughStandIn } =
    way === "passwordWithCode"
      ? { label: "sign-in: password + authenticator", signIn: passwordWithCode, throughStandIn: undefined }
      : methods[way];
  if (throughStandIn) recorder.informative.add(label);
  const done = await recorder.time(label, async () => {
    await signIn(campus, browser, recorder);
    noteSession(campus, browser);
    return true;
  });
  return done === true;
}
