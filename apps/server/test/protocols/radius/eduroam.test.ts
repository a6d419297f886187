// Wi-Fi through FreeRADIUS (issue 61): the shipped deploy/freeradius, run by the real FreeRADIUS against a
// listening KPI ID, asked by eapol_test (wpa_supplicant's EAP, what a laptop runs). One FreeRADIUS start and
// two radsecproxies (ours, and a stand-in for the national eduroam proxy) for the whole file.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CreatedWifiPassword, WifiPasswords } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disableUser } from "../../../src/model/sessions/disable.ts";
import { postJson } from "../../support/app.ts";
import { addPerson, signIn } from "../../support/campus.ts";
import {
  makeCertificates,
  type RunningProcess,
  renderFreeradius,
  runEapol,
  startProcess,
  ttlsNetwork,
} from "../../support/freeradius.ts";
import { createListeningTestApp, freePort, type ListeningTestApp } from "../../support/listening.ts";

const restSecret = "radius-rest-secret-for-the-eduroam-test-0123456789";
const clientSecret = "access-point-secret-eduroam-test";
const radsecSecret = "radsecproxy-secret-eduroam-test";
const coaSecret = "kpi-id-coa-secret-eduroam-test-0123456789";
const accountPassword = "campus-password-of-olena-2026";
const guestsVlan = "130";

let dir: string;
let kpi: ListeningTestApp;
let authPort: number;
let freeradius: RunningProcess;
let radsecLocal: RunningProcess;
let radsecNational: RunningProcess;
const kpiLog: string[] = [];
const secrets: string[] = [];
let olenaCookie: string;
let olenaPassword: CreatedWifiPassword;
let olenaPeap: CreatedWifiPassword;

// What an access point sends beside EAP: its address and SSID, its name, and a request for a CUI (RFC 4372).
const accessPoint = ["-N30:s:AA-BB-CC-DD-EE-01:eduroam", "-N32:s:ap-library-2", "-N89:x:00", "-M02:11:22:33:44:55"];

const ttls = (identity: string, password: string, anonymous?: string) =>
  ttlsNetwork(`${dir}/pki/ca.pem`, identity, password, anonymous);

function peap(identity: string, password: string) {
  return [
    "key_mgmt=WPA-EAP",
    "eap=PEAP",
    `identity="${identity}"`,
    'anonymous_identity="anonymous@kpi.ua"',
    `password="${password}"`,
    `ca_cert="${dir}/pki/ca.pem"`,
    'domain_match="radius.kpi.ua"',
    'phase2="auth=MSCHAPV2"',
  ].join("\n");
}

const eapol = (name: string, network: string) =>
  runEapol(dir, name, network, { port: authPort, secret: clientSecret }, accessPoint);

async function startRadsecproxies(certs: string, udpPort: number) {
  const tlsPort = await freePort();
  const national = join(dir, "radsec-national.conf");
  writeFileSync(
    national,
    `ListenTLS 127.0.0.1:${tlsPort}
LogLevel 4
tls default {
  CACertificateFile ${certs}/ca.pem
  CertificateFile ${certs}/radsec-national.pem
  CertificateKeyFile ${certs}/radsec-national.key
}
client kpi-ua {
  host 127.0.0.1
  type tls
  secret radsec
  CertificateNameCheck off
}
realm * {
  replymessage "answered by the national proxy stand-in"
}
`,
  );
  const local = join(dir, "radsec-local.conf");
  writeFileSync(
    local,
    `ListenUDP 127.0.0.1:${udpPort}
LogLevel 4
tls default {
  CACertificateFile ${certs}/ca.pem
  CertificateFile ${certs}/radsec-local.pem
  CertificateKeyFile ${certs}/radsec-local.key
}
client freeradius {
  host 127.0.0.1
  type udp
  secret ${radsecSecret}
}
server national {
  host 127.0.0.1
  port ${tlsPort}
  type tls
  secret radsec
  CertificateNameCheck off
}
realm * {
  server national
}
`,
  );
  radsecNational = await startProcess(
    "radsecproxy",
    ["-f", "-d", "4", "-c", national, "-i", join(dir, "n.pid")],
    {},
    /radsecproxy .* starting|listening/i,
  );
  radsecLocal = await startProcess(
    "radsecproxy",
    ["-f", "-d", "4", "-c", local, "-i", join(dir, "l.pid")],
    {},
    /radsecproxy .* starting|listening/i,
  );
}

async function wifiOf(cookie: string): Promise<WifiPasswords> {
  const response = await kpi.test.app.inject({ method: "GET", url: "/api/account/wifi", headers: { cookie } });
  expect(response.statusCode).toBe(200);
  return response.json();
}

async function createWifiPassword(cookie: string, name: string): Promise<CreatedWifiPassword> {
  const response = await postJson(
    kpi.test.app,
    "/api/account/wifi",
    { name },
    { headers: { cookie, origin: kpi.origin } },
  );
  expect(response.statusCode, response.body).toBe(200);
  const created: CreatedWifiPassword = response.json();
  secrets.push(created.password);
  return created;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "kpi-id-eduroam-"));
  const certs = join(dir, "pki");
  makeCertificates(certs);
  authPort = await freePort();
  const radsecUdp = await freePort();
  kpi = await createListeningTestApp("pglite", {
    protocols: ["radius"],
    env: { RADIUS_REST_SECRET: restSecret, WIFI_VLAN_GUESTS: guestsVlan, LOG_LEVEL: "debug" },
    logStream: { write: (line: string) => void kpiLog.push(line) },
  });
  await addPerson(kpi.test.app, { username: "olena", fullName: "Olena Koval" }, accountPassword);
  olenaCookie = await signIn(kpi.test.app, "olena", accountPassword, { origin: kpi.origin });
  olenaPassword = await createWifiPassword(olenaCookie, "Laptop");
  olenaPeap = await createWifiPassword(olenaCookie, "Windows PC");

  const raddb = join(dir, "raddb");
  renderFreeradius(raddb, certs, {
    auth: authPort,
    acct: await freePort(),
    coa: await freePort(),
    radsecproxyUdp: radsecUdp,
  });
  const env = {
    KPI_ID_RADIUS_URL: `${kpi.origin}/api/radius`,
    RADIUS_REST_SECRET: restSecret,
    RADSECPROXY_SECRET: radsecSecret,
    RADIUS_LOCAL_CLIENT_SECRET: clientSecret,
    RADIUS_COA_SECRET: coaSecret,
  };
  await startRadsecproxies(certs, radsecUdp);
  freeradius = await startProcess("freeradius", ["-X", "-d", raddb], env, /Ready to process requests/);
}, 120_000);

afterAll(async () => {
  await freeradius?.stop();
  await radsecLocal?.stop();
  await radsecNational?.stop();
  await kpi?.test.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("eduroam through FreeRADIUS with the shipped configuration", () => {
  it("is accepted by freeradius -XC as shipped (rendered only for this test's ports and directories)", () => {
    const output = execFileSync("freeradius", ["-XC", "-d", join(dir, "raddb")], {
      env: {
        ...process.env,
        KPI_ID_RADIUS_URL: `${kpi.origin}/api/radius`,
        RADIUS_REST_SECRET: restSecret,
        RADSECPROXY_SECRET: radsecSecret,
        RADIUS_LOCAL_CLIENT_SECRET: clientSecret,
        RADIUS_COA_SECRET: coaSecret,
      },
    }).toString();
    expect(output).toContain("Configuration appears to be OK");
  });

  it("accepts EAP-TTLS/PAP with a network password and the anonymous outer identity, with session keys", async () => {
    const result = await eapol("ttls-ok", ttls("olena@kpi.ua", olenaPassword.password));
    expect(result.accepted, result.output).toBe(true);
    expect(result.output).toContain("MPPE keys OK: 1");
    // The VLAN of her affiliation (no student or staff record: guests) and a Chargeable-User-Identity.
    expect(result.output).toMatch(/Attribute 64 \(Tunnel-Type\) length=6\s+Value: 0000000d/);
    expect(result.output).toMatch(/Attribute 81 \(Tunnel-Private-Group-Id\) length=5\s+Value: 313330/);
    expect(result.output).toMatch(/Attribute 89 \(Chargeable-User-Identity\) length=34/);
    const wifi = await wifiOf(olenaCookie);
    const laptop = wifi.passwords.find((each) => each.id === olenaPassword.id);
    expect(laptop?.uses[0]).toMatchObject({
      method: "pap",
      accessPoint: "AA-BB-CC-DD-EE-01:eduroam",
      nasIdentifier: "ap-library-2",
    });
  });

  it("refuses a wrong password and the person's KPI ID password", async () => {
    expect((await eapol("ttls-wrong", ttls("olena@kpi.ua", "wrong-wrong-wrong-wrong"))).accepted).toBe(false);
    expect((await eapol("ttls-account", ttls("olena@kpi.ua", accountPassword))).accepted).toBe(false);
  });

  it("accepts PEAP-MSCHAPv2 with the device's identity, and refuses it without or with a wrong password", async () => {
    const ok = await eapol("peap-ok", peap(olenaPeap.identity, olenaPeap.password));
    expect(ok.accepted, ok.output).toBe(true);
    expect(ok.output).toContain("MPPE keys OK: 1");
    expect((await eapol("peap-plain", peap("olena@kpi.ua", olenaPeap.password))).accepted).toBe(false);
    expect((await eapol("peap-wrong", peap(olenaPeap.identity, "wrong-wrong-wrong-wrong"))).accepted).toBe(false);
  });

  it("refuses a revoked password at once", async () => {
    const phone = await createWifiPassword(olenaCookie, "Old phone");
    expect((await eapol("ttls-before-revoke", ttls("olena@kpi.ua", phone.password))).accepted).toBe(true);
    const revoke = await postJson(kpi.test.app, `/api/account/wifi/${phone.id}/revoke`, undefined, {
      headers: { cookie: olenaCookie, origin: kpi.origin },
    });
    expect(revoke.statusCode).toBe(200);
    expect((await eapol("ttls-revoked", ttls("olena@kpi.ua", phone.password))).accepted).toBe(false);
  });

  it("refuses a disabled person's password", async () => {
    const person = await addPerson(kpi.test.app, { username: "taras", fullName: "Taras Melnyk" }, accountPassword);
    const cookie = await signIn(kpi.test.app, "taras", accountPassword, { origin: kpi.origin });
    const password = await createWifiPassword(cookie, "Phone");
    expect((await eapol("ttls-taras", ttls("taras@kpi.ua", password.password))).accepted).toBe(true);
    await disableUser({ db: kpi.test.app.db, now: kpi.test.app.clock() }, person.id);
    expect((await eapol("ttls-taras-disabled", ttls("taras@kpi.ua", password.password))).accepted).toBe(false);
  });

  it("forwards another realm through radsecproxy to the national proxy, not answering it here", async () => {
    const radiusCalls = kpiLog.filter((line) => line.includes("/api/radius/")).length;
    const result = await eapol(
      "visitor",
      ttls("visitor@other.example", "their-own-password", "anonymous@other.example"),
    );
    expect(result.accepted).toBe(false);
    expect(result.output).toContain("answered by the national proxy stand-in");
    expect(radsecNational.output()).toMatch(/anonymous@other\.example/);
    expect(kpiLog.filter((line) => line.includes("/api/radius/")).length).toBe(radiusCalls);
  });

  it("writes no password or hash into FreeRADIUS's or KPI ID's logs", async () => {
    const rows = await kpi.test.app.db.selectFrom("wifi_passwords").select(["secret_hash", "nt_hash_sealed"]).execute();
    const hashes = rows.flatMap((row) => [row.secret_hash, row.nt_hash_sealed]);
    const { ntHash } = await import("../../../src/model/wifi/secrets.ts");
    const ntHashes = secrets.map((secret) => ntHash(secret));
    const logs = [freeradius.output(), radsecLocal.output(), radsecNational.output(), kpiLog.join("")].join("\n");
    expect(logs).toContain("Login OK");
    for (const secret of [...secrets, accountPassword, ...hashes, ...ntHashes]) {
      expect(logs.toLowerCase()).not.toContain(secret.toLowerCase());
    }
    expect(readFileSync(join(dir, "raddb", "radiusd.conf"), "utf8")).toContain("auth_goodpass = no");
  });
});
