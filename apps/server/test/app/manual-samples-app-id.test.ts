import { once } from "node:events";
import { rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../support/listening.ts";
import {
  manualBlock,
  manualSamples,
  type RunningSample,
  sampleDirectory,
  startSample,
} from "../support/manual-samples.ts";

const ownAppId = "6c6fcecd-eb70-443b-a762-0f0037a090be";

/**
 * A stand-in for KPI ID's ticket endpoint that hands out a ticket issued to `applicationId`: what a sample
 * would get from a misconfigured or impersonated service, which a real KPI ID never answers.
 */
async function ticketStandIn() {
  const seen: string[] = [];
  let applicationId = ownAppId;
  const server: Server = createServer((request, response) => {
    seen.push(request.url ?? "");
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ id: "t", applicationId, data: { USER_ID: "u", NAME: "Mallory" } }));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    issueTo: (id: string) => {
      applicationId = id;
    },
    close: () => server.close(),
  };
}

/** The sample's sign-in page and the cookie it set; then its callback with a ticket and that state. */
async function callbackWithTicket(site: string): Promise<{ status: number; body: string }> {
  const start = await fetch(`${site}/`);
  const cookie = start.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const href = /href="([^"]+)"/.exec(await start.text())?.[1]?.replaceAll("&amp;", "&") ?? "";
  const state = new URL(href).searchParams.get("state") ?? "";
  const answer = await fetch(`${site}/kpi-id/callback?ticketId=t&state=${state}`, { headers: { cookie } });
  return { status: answer.status, body: await answer.text() };
}

/** Issue 19: every ticket sample checks that the ticket's applicationId is its own before it believes it. */
describe("the integration manual's ticket samples", () => {
  let kpi: Awaited<ReturnType<typeof ticketStandIn>>;
  const running: RunningSample[] = [];
  const directory = sampleDirectory();

  beforeAll(async () => {
    kpi = await ticketStandIn();
  });
  afterAll(() => {
    for (const sample of running) sample.child.kill();
    kpi?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it.each(manualSamples.filter((sample) => sample.protocol === "ticket"))(
    "the $name sample refuses a ticket issued to another application",
    async (sample) => {
      const env = { KPI_ID_URL: kpi.url, KPI_ID_APP_ID: ownAppId, KPI_ID_APP_SECRET: "secret" };
      const code = manualBlock("en", sample.fence, sample.opening);
      const started = await startSample(directory, sample, code, env, await freePort());
      running.push(started);

      kpi.issueTo(ownAppId);
      const own = await callbackWithTicket(started.site);
      expect(own.body, started.output()).toContain("Hello, Mallory");

      kpi.issueTo("0b2c6a7e-1f4d-4c1a-9e8b-5d3f2a1b0c9d");
      const redeemed = kpi.seen.length;
      const other = await callbackWithTicket(started.site);
      // Redeemed (so the check is the sample's, not a missing call), and nobody signed in.
      expect(kpi.seen.length).toBe(redeemed + 1);
      expect(other.status).toBe(401);
      expect(other.body).not.toContain("Mallory");
    },
  );
});
