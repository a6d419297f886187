import { type SignInResult, sessionWorks, signIn } from "../lib/client.ts";
import { type Instance, killInstance } from "../lib/instances.ts";
import { countFailure, expect, newReport, type ScenarioReport } from "../lib/report.ts";
import { sleep } from "../lib/wait.ts";
import type { ClusterContext } from "./context.ts";

const concurrentSignIns = 200;

/** 200 sign-ins at once through nginx; instance a gets SIGKILL once a quarter of them are answered. */
export async function killDuringSignIns(context: ClusterContext): Promise<ScenarioReport> {
  const report = newReport(`SIGKILL of one instance during ${concurrentSignIns} concurrent sign-ins`);
  const [a] = context.instances;
  if (!a) throw new Error("the cluster needs instances");
  const people = context.loadPeople.slice(0, concurrentSignIns);
  expect(report, people.length === concurrentSignIns, `only ${people.length} load people were seeded`);
  let answered = 0;
  const load = Promise.all(
    people.map(async (person, index): Promise<SignInResult> => {
      const result = await signIn(context.nginx.url, person.username, person.password, {
        origin: context.origin,
        clientIp: `10.9.${Math.floor(index / 250)}.${(index % 250) + 1}`,
        requestId: `kill-${index}`,
        timeoutMs: 60_000,
      });
      answered += 1;
      return result;
    }),
  );
  const killedAfter = await killWhenQuarterDone(a, () => answered);
  const results = await load;
  report.notes.push(
    `instance a (${a.address}) got SIGKILL after ${killedAfter} of ${concurrentSignIns} sign-ins were answered`,
  );
  return finish(report, context, results, a.address);
}

async function killWhenQuarterDone(a: Instance, done: () => number): Promise<number> {
  const deadline = Date.now() + 60_000;
  while (done() < concurrentSignIns / 4 && Date.now() < deadline) await sleep(10);
  const at = done();
  await killInstance(a);
  return at;
}

async function finish(
  report: ScenarioReport,
  context: ClusterContext,
  results: SignInResult[],
  killedAddress: string,
): Promise<ScenarioReport> {
  const log = new Map(context.nginx.accessLog().map((line) => [line.requestId, line]));
  const cookies: string[] = [];
  for (const result of results) {
    report.sent += result.requestIds.length;
    if (result.cookie) {
      cookies.push(result.cookie);
      continue;
    }
    const failure = result.failure;
    const lastId = result.requestIds.at(-1) ?? "";
    const line = log.get(lastId);
    const heldByKilled = line?.upstreams.includes(killedAddress) ?? false;
    const status = failure?.status ?? 0;
    countFailure(
      report,
      `${failure?.step} step ${status || failure?.error}${heldByKilled ? " (was on the killed instance)" : ` (upstream ${line?.upstreams.join(",")})`}`,
    );
    expect(
      report,
      heldByKilled,
      `${lastId} failed with ${status} ${failure?.code ?? ""} but nginx sent it to ${line?.upstreams.join(",")}`,
    );
  }
  let lost = 0;
  for (const cookie of cookies) {
    if (!(await sessionWorks(context.nginx.url, cookie, { origin: context.origin, clientIp: "198.51.100.30" }))) lost++;
  }
  report.sent += cookies.length;
  report.lost = lost;
  report.notes.push(
    `${cookies.length} sign-ins answered with a cookie; each was tried again afterwards, ${lost} refused`,
  );
  return report;
}
