import { call, sessionCookie, sessionWorks } from "../lib/client.ts";
import { expect, newReport, type ScenarioReport } from "../lib/report.ts";
import { sleep } from "../lib/wait.ts";
import type { ClusterContext } from "./context.ts";

const maxPolls = 60;
const pollIntervalMs = 250;

/**
 * The QR link is made on instance b, the phone's signed callback reaches instance a (the stand-in
 * delivers it there), b is polled until Finished, and the grant it hands out gives a working cookie.
 */
export async function diiaAcrossInstances(context: ClusterContext): Promise<ScenarioReport> {
  const report = newReport("a Diia sign-in whose callback reaches one instance and whose polls reach the other");
  const [a, b] = context.instances;
  if (!a || !b) throw new Error("the cluster needs two instances");
  const options = { origin: context.origin, clientIp: "198.51.100.20" };

  const link = await call(`${b.url}/api/diia/app-link`, options);
  report.sent += 1;
  expect(report, link.status === 200, `app-link on b answered ${link.status} ${link.body}`);
  if (link.status !== 200) return report;
  const { deepLink, requestId } = JSON.parse(link.body) as { deepLink: string; requestId: string };
  // The request belongs to the caller that asked for it: polls carry the binding cookie app-link set.
  const binding = link.setCookie.find((each) => /^(__Host-)?kpi_id_diia=/.test(each))?.split(";")[0];
  expect(report, binding !== undefined, "app-link on b set no binding cookie");

  // The "phone": confirming signs the request and the stand-in posts the callback to instance a.
  const phone = await fetch(deepLink, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ action: "confirm", person: context.diiaPerson.standInId }).toString(),
    signal: AbortSignal.timeout(30_000),
  });
  const phonePage = await phone.text();
  expect(report, phone.status === 200, `the phone's confirmation answered ${phone.status}: ${phonePage.slice(0, 200)}`);

  let sessionId: string | undefined;
  let polls = 0;
  let lastStatus = "";
  for (; polls < maxPolls && !sessionId; polls++) {
    const poll = await call(`${b.url}/api/diia/check-request?requestId=${requestId}`, { ...options, cookie: binding });
    report.sent += 1;
    if (poll.status !== 200) {
      expect(report, false, `check-request on b answered ${poll.status} ${poll.body}`);
      return report;
    }
    const answer = JSON.parse(poll.body) as { status: string; sessionId?: string };
    lastStatus = answer.status;
    if (answer.sessionId) sessionId = answer.sessionId;
    else if (answer.status !== "Processing") break;
    else await sleep(pollIntervalMs);
  }
  expect(report, sessionId !== undefined, `b never reported Finished with a grant (last: ${lastStatus})`);
  if (!sessionId) return report;
  report.notes.push(`app-link on b, callback delivered to a by the stand-in, ${polls} poll(s) on b → Finished`);

  const grant = await call(`${a.url}/api/auth/internal`, { ...options, json: { sessionId } });
  report.sent += 1;
  const cookie = sessionCookie(grant);
  expect(report, grant.status === 200 && cookie !== undefined, `the Diia grant on a answered ${grant.status}`);
  if (!cookie) return report;
  report.sent += 1;
  const works = await sessionWorks(b.url, cookie, options);
  expect(report, works, "the Diia session did not open GET /user on b");
  const profile = await call(`${b.url}/user`, { ...options, cookie });
  report.sent += 1;
  expect(
    report,
    profile.body.includes(context.diiaPerson.fullName) && profile.body.includes("DIIA"),
    `GET /user did not show the person the phone signed for, signed in by Diia: ${profile.body.slice(0, 300)}`,
  );
  report.notes.push("the grant exchanged on a; the cookie opens GET /user on b as the signed person");
  return report;
}
