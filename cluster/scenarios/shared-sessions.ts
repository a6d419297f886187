import { call, codeOf, type SignInResult, sessionWorks, signIn } from "../lib/client.ts";
import { expect, newReport, type ScenarioReport } from "../lib/report.ts";
import type { ClusterContext } from "./context.ts";

/** What the scenario uses of a cluster: the processes' (run.ts) or compose.yaml's containers (image/compose.ts). */
export type SharedSessionsCluster = Pick<ClusterContext, "origin" | "people"> & {
  instances: { url: string }[];
  nginx: { url: string };
};

/** Credentials on instance a, the grant on instance b, the cookie on both and through nginx; logout on b ends it on a. */
export async function sharedSessions(context: SharedSessionsCluster): Promise<ScenarioReport> {
  const report = newReport("a session made through one instance works on the other");
  const [a, b] = context.instances;
  const person = context.people[0];
  if (!a || !b || !person) throw new Error("the cluster needs two instances and a person");
  const options = { origin: context.origin, clientIp: "198.51.100.10" };
  const signedIn: SignInResult = await signIn(a.url, person.username, person.password, options, b.url);
  report.sent += 2;
  expect(report, signedIn.cookie !== undefined, `sign-in across instances failed: ${JSON.stringify(signedIn.failure)}`);
  if (!signedIn.cookie) return report;
  const cookie = signedIn.cookie;
  for (const [where, base] of [
    ["instance a", a.url],
    ["instance b", b.url],
    ["nginx", context.nginx.url],
  ] as const) {
    report.sent += 1;
    const works = await sessionWorks(base, cookie, options);
    expect(report, works, `GET /user through ${where} refused the session`);
  }
  report.notes.push("POST /api/auth on a, POST /api/auth/internal on b, GET /user on a, b and nginx: all 200");
  const logout = await call(`${b.url}/api/auth/logout`, { ...options, json: {}, cookie });
  report.sent += 2;
  const after = await call(`${a.url}/user`, { ...options, cookie });
  expect(report, logout.status < 300, `logout on b answered ${logout.status} ${codeOf(logout) ?? ""}`);
  expect(report, after.status === 401, `after logout on b, a still answered ${after.status}`);
  report.notes.push(`logout on b (${logout.status}) ends the session on a too (GET /user → ${after.status})`);
  return report;
}
