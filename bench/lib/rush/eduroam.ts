import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, makeCertificates, renderFreeradius, startProcess } from "@kpi-id/server/testing";
import { sent } from "./browser.ts";
import { otherCores } from "./instance.ts";
import type { Recorder } from "./open-loop.ts";
import { type Join, type RadiusServer, requestAccess } from "./radius-access.ts";

// eduroam in the rush: the real FreeRADIUS with the shipped configuration (deploy/freeradius), pinned to the
// generator's cores, and devices joining at the campus's rate. Each join is one PAP Access-Request to a virtual
// server made of the shipped inner-tunnel's sections (sites-available/kpi-id-inner): its rest module asks KPI ID
// (/api/radius/authenticate, then /api/radius/post-auth) exactly as inside an EAP-TTLS tunnel. The TLS tunnel
// itself (FreeRADIUS's cost, not KPI ID's) is left out: an eapol_test process per join would measure the generator.

export interface RunningFreeradius extends RadiusServer {
  pid: number;
  stop(): Promise<void>;
}

/** A copy of kpi-id-inner listening for PAP itself, without the outer tunnel's session-state it writes to. */
function papServer(inner: string, port: number): string {
  const listen = `server rush-pap {\n\tlisten {\n\t\ttype = auth\n\t\tipaddr = 127.0.0.1\n\t\tport = ${port}\n\t}`;
  const withoutOuter = inner.replace(/\t\tupdate outer\.session-state \{[^}]*\}\n/, "");
  if (withoutOuter === inner || !inner.includes("server kpi-id-inner {"))
    throw new Error("sites-available/kpi-id-inner changed: the rush's PAP server needs updating");
  return withoutOuter.replace("server kpi-id-inner {", listen);
}

/** FreeRADIUS on the generator's cores, or undefined when it is not installed (the rush then says so). */
export async function startFreeradius(kpiIdOrigin: string, restSecret: string): Promise<RunningFreeradius | undefined> {
  if (spawnSync("freeradius", ["-v"], { stdio: "ignore" }).status !== 0) return undefined;
  const dir = mkdtempSync(join(tmpdir(), "kpi-id-rush-radius-"));
  const certs = join(dir, "pki");
  makeCertificates(certs);
  const raddb = join(dir, "raddb");
  const ports = {
    auth: await freePort(),
    acct: await freePort(),
    coa: await freePort(),
    radsecproxyUdp: await freePort(),
  };
  renderFreeradius(raddb, certs, ports);
  const port = await freePort();
  const inner = readFileSync(join(raddb, "sites-available/kpi-id-inner"), "utf8");
  writeFileSync(join(raddb, "sites-available/rush-pap"), papServer(inner, port));
  writeFileSync(
    join(raddb, "radiusd.conf"),
    `${readFileSync(join(raddb, "radiusd.conf"), "utf8")}\n$INCLUDE sites-available/rush-pap\n`,
  );
  const secret = `rush-access-point-${process.pid}-secret`;
  const env = {
    KPI_ID_RADIUS_URL: `${kpiIdOrigin}/api/radius`,
    RADIUS_REST_SECRET: restSecret,
    RADSECPROXY_SECRET: "rush-radsecproxy-not-running",
    RADIUS_LOCAL_CLIENT_SECRET: secret,
    RADIUS_COA_SECRET: "rush-coa-not-used-0123456789",
  };
  // Not -X: its debug output for every request would be FreeRADIUS's largest cost. taskset execs it (pid is its).
  const running = await startProcess(
    "taskset",
    ["-c", otherCores, "freeradius", "-f", "-l", "stdout", "-d", raddb],
    env,
    /Ready to process requests/,
  );
  return {
    port,
    secret,
    pid: running.child.pid ?? 0,
    stop: async () => {
      await running.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One device joining: accepted, or a failure of the row (refused or unanswered). */
export async function deviceJoin(server: RadiusServer, device: Join, recorder: Recorder): Promise<void> {
  // FreeRADIUS's two calls to KPI ID for each join (authenticate, post-auth) are requests KPI ID serves.
  sent.requests += 2;
  await recorder.time("eduroam: join (PAP through FreeRADIUS)", async () => {
    if (!(await requestAccess(server, device))) throw new Error(`${device.identity} refused`);
    return true;
  });
}
