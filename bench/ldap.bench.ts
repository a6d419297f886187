// LDAP binds through OpenLDAP slapd (issue 77): a person's simple bind with an application password, sent with
// ldapts over StartTLS to the real slapd with the shipped configuration (deploy/openldap), whose sock overlay asks
// KPI ID's responder. The baseline is the same slapd asking a stand-in responder that always says yes, measured in
// the same run: the ratio is what KPI ID's own check (throttle, person, keyed hash, use and audit rows) costs.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkServerIdentity } from "node:tls";
import {
  aboveModelDatabase,
  createTestApp,
  personWithApplicationPassword,
  startBindResponder,
  startTestSlapd,
} from "@kpi-id/server/testing";
import { Client } from "ldapts";
import { sequentialTimings } from "./lib/measure.ts";
import type { Comparison } from "./lib/types.ts";

export const title = "LDAP binds through slapd's sock overlay (StartTLS, one at a time)";

const seconds = Number(process.env.BENCH_LDAP_SECONDS ?? 5);
const success = 0;

/** Binds as `dn` over one StartTLS connection, again and again, one at a time: binds per second and each one's time. */
async function timeBinds(url: string, caFile: string, dn: string, password: string) {
  const client = new Client({ url, timeout: 5_000 });
  // The test certificate names 127.0.0.1 (an IP SAN), which Node checks only when asked for that address.
  await client.startTLS({
    ca: [readFileSync(caFile)],
    checkServerIdentity: (_host, certificate) => checkServerIdentity("127.0.0.1", certificate),
  });
  try {
    return await sequentialTimings(() => client.bind(dn, password), seconds * 1000, 20);
  } finally {
    await client.unbind().catch(() => {});
  }
}

export async function run(): Promise<Comparison[]> {
  const dir = mkdtempSync(join(tmpdir(), "kpi-id-ldap-bench-"));
  const slapd = await startTestSlapd(dir);
  try {
    // The stand-in first, on the socket KPI ID's responder takes over after.
    const standIn = await startBindResponder(
      slapd.bindSocket,
      async () => success,
      () => {},
    );
    const baseline = await timeBinds(slapd.url, slapd.caFile, "uid=anyone,ou=people,dc=kpi,dc=ua", "anything");
    await standIn.close();

    const kpi = await createTestApp(aboveModelDatabase, {
      LDAP_LDAPI_PATH: slapd.ldapiPath,
      LDAP_BIND_SOCKET: slapd.bindSocket,
      LDAP_RESYNC_SECONDS: "3600",
    });
    try {
      const person = { username: "bench.ldap", fullName: "Олена Коваленко", studentId: "KV-0" };
      const { created } = await personWithApplicationPassword(kpi.app, person, "bench passphrase for the ldap run");
      await kpi.app.ldap?.syncNow();
      const subject = await timeBinds(
        slapd.url,
        slapd.caFile,
        `uid=${person.username},ou=people,dc=kpi,dc=ua`,
        created.password,
      );
      const measured = (label: string, timed: typeof subject) => ({
        label,
        value: timed.rate,
        unit: "binds/s",
        p50Ms: timed.p50Ms,
        p99Ms: timed.p99Ms,
      });
      return [
        {
          subject: measured("bind, KPI ID's responder (application password)", subject),
          baseline: measured("bind, stand-in responder that always says yes", baseline),
          method: `ldapts over StartTLS to slapd (shipped slapd.conf), one bind at a time, ${seconds} s each, ${aboveModelDatabase}`,
          goal: { name: "ldap-bind", floor: "stand-in-responder", target: 0.5, bound: "atLeast" },
        },
      ];
    } finally {
      await kpi.close();
    }
  } finally {
    await slapd.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
