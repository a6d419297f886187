// The sign-ins of compose.ts, in a process of their own: it trusts the test's TLS certificate for nginx
// (NODE_EXTRA_CA_CERTS, which Node reads only at start). Reads its cluster from KPI_ID_COMPOSE_CLUSTER (JSON)
// and prints the report as JSON on its last line.
import { call, sessionWorks, signIn } from "../lib/client.ts";
import { countFailure, expect, newReport, type ScenarioReport } from "../lib/report.ts";
import { waitFor } from "../lib/wait.ts";
import { type SharedSessionsCluster, sharedSessions } from "../scenarios/shared-sessions.ts";

/** Sign-ins entirely through nginx (which picks the instance), one person each: the people after the first. */

async function main(): Promise<ScenarioReport[]> {
  const cluster = JSON.parse(process.env.KPI_ID_COMPOSE_CLUSTER ?? "") as SharedSessionsCluster;
  const options = { origin: cluster.origin };
  await waitFor(`nginx answering on ${cluster.nginx.url}`, 30_000, async () => {
    return (await call(`${cluster.nginx.url}/health`, options)).status === 200;
  });
  const reports = [await sharedSessions(cluster)];
  const people = cluster.people.slice(1);
  const report = newReport(`${people.length} people signing in through nginx (TLS)`);
  for (const [index, person] of people.entries()) {
    const clientOptions = { ...options, clientIp: `198.51.100.${30 + index}`, requestId: `compose-${index}` };
    const result = await signIn(cluster.nginx.url, person.username, person.password, clientOptions);
    report.sent += 2;
    if (!result.cookie) {
      countFailure(report, `${result.failure?.step} ${result.failure?.status} ${result.failure?.code ?? ""}`);
      continue;
    }
    report.sent += 1;
    if (!(await sessionWorks(cluster.nginx.url, result.cookie, clientOptions))) report.lost += 1;
  }
  expect(report, report.failed === 0, "a sign-in through nginx failed");
  report.notes.push(
    `${report.sent} requests over https through nginx; ${people.length - report.failed} people signed in`,
  );
  reports.push(report);
  return reports;
}

main().then(
  (reports) => {
    console.log(JSON.stringify(reports));
    process.exit(0);
  },
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
