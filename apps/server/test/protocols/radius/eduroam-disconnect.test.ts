// Wi-Fi stays on after access ends (issue 73, point 4): the shipped deploy/freeradius now listens for accounting,
// KPI ID keeps the sessions it reports, and disabling a person, turning their Wi-Fi off or revoking a password
// sends an RFC 5176 Disconnect-Request through FreeRADIUS to the controller holding the session. The controller is
// a stand-in: a second FreeRADIUS listening for CoA, which writes down what it received.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CreatedWifiPassword, WifiPasswords } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disableUser } from "../../../src/model/sessions/disable.ts";
import { postJson, TEST_SESSION_SECRET } from "../../support/app.ts";
import { addPerson, signIn } from "../../support/campus.ts";
import { runCliOn } from "../../support/cli.ts";
import { addOperator } from "../../support/console.ts";
import { type ControllerStandIn, startControllerStandIn } from "../../support/controller-stand-in.ts";
import { aboveModelDatabase } from "../../support/databases.ts";
import {
  makeCertificates,
  type RunningProcess,
  renderFreeradius,
  runEapol,
  startProcess,
  ttlsNetwork,
} from "../../support/freeradius.ts";
import { createListeningTestApp, freePort, type ListeningTestApp } from "../../support/listening.ts";

const restSecret = "radius-rest-secret-for-the-disconnect-test-0123456789";
const clientSecret = "access-point-secret-disconnect-test";
const coaSecret = "kpi-id-coa-secret-disconnect-test-0123456789";
const controllerSecret = "controller-coa-secret-disconnect-test";
const accountPassword = "campus-password-for-the-disconnect-test";

let dir: string;
let kpi: ListeningTestApp;
let ports: { auth: number; acct: number; coa: number; radsecproxyUdp: number };
let freeradius: RunningProcess;
let controller: ControllerStandIn;
let sessionCount = 0;

const ttls = (identity: string, password: string) => ttlsNetwork(`${dir}/pki/ca.pem`, identity, password);

/** One device joins: eapol_test as the laptop; the Class of the Access-Accept, which the controller keeps. */
async function joinNetwork(identity: string, password: string, mac: string): Promise<string> {
  const accessPoint = ["-N30:s:AA-BB-CC-DD-EE-01:eduroam", "-N32:s:ap-hall-1", `-M${mac.replaceAll("-", ":")}`];
  const result = await runEapol(
    dir,
    `join-${mac}`,
    ttls(identity, password),
    { port: ports.auth, secret: clientSecret },
    accessPoint,
  );
  expect(result.accepted, result.output).toBe(true);
  const value = /Attribute 25 \(Class\) length=\d+\s+Value: ([0-9a-f]+)/.exec(result.output)?.[1];
  expect(value, "the Access-Accept carries a Class").toBeDefined();
  return `0x${value}`;
}

/** What the controller sends after the device joined: RADIUS accounting, with radclient. */
function accounting(attributes: Record<string, string>): Promise<string> {
  const file = join(dir, `acct-${++sessionCount}.txt`);
  writeFileSync(
    file,
    Object.entries({ "NAS-Identifier": "wlc-hall", "NAS-IP-Address": "127.0.0.1", ...attributes })
      .map(([name, value]) => `${name} = ${value.startsWith("0x") ? value : `"${value}"`}`)
      .join("\n"),
  );
  return new Promise((resolve) => {
    execFile(
      "radclient",
      ["-f", file, "-t", "5", "-r", "1", `127.0.0.1:${ports.acct}`, "acct", clientSecret],
      (_error, stdout, stderr) => resolve(`${stdout}${stderr}`),
    );
  });
}

/** A device connected with the password: joined, then its session started at the controller. */
async function connected(identity: string, password: string, mac: string) {
  const sessionClass = await joinNetwork(identity, password, mac);
  const acctSessionId = `session-${mac}`;
  const answer = await accounting({
    "Acct-Status-Type": "Start",
    "Acct-Session-Id": acctSessionId,
    "User-Name": "anonymous@kpi.ua",
    "Calling-Station-Id": mac,
    "Called-Station-Id": "AA-BB-CC-DD-EE-01:eduroam",
    "Framed-IP-Address": "10.1.2.3",
    Class: sessionClass,
  });
  expect(answer).toMatch(/Received Accounting-Response/);
  return { acctSessionId, sessionClass };
}

/** The stand-in controller's lines naming the session, waited for (bounded) from `since`; the time it took. */
async function disconnectReceived(acctSessionId: string, since: number) {
  const deadline = Date.now() + 15_000;
  let lines = controller.received().filter((line) => line.includes(`Acct-Session-Id=${acctSessionId} `));
  while (lines.length === 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    lines = controller.received().filter((line) => line.includes(`Acct-Session-Id=${acctSessionId} `));
  }
  const elapsedMs = Date.now() - since;
  console.info(`Disconnect-Request for ${acctSessionId} reached the stand-in controller after ${elapsedMs} ms`);
  return lines;
}

async function wifiOf(cookie: string): Promise<WifiPasswords> {
  const response = await kpi.test.app.inject({ method: "GET", url: "/api/account/wifi", headers: { cookie } });
  expect(response.statusCode).toBe(200);
  return response.json();
}

async function personWithWifi(username: string) {
  const person = await addPerson(kpi.test.app, { username, fullName: username }, accountPassword);
  const cookie = await signIn(kpi.test.app, username, accountPassword, { origin: kpi.origin });
  const response = await postJson(
    kpi.test.app,
    "/api/account/wifi",
    { name: "Laptop" },
    { headers: { cookie, origin: kpi.origin } },
  );
  expect(response.statusCode).toBe(200);
  const password: CreatedWifiPassword = response.json();
  return { person, cookie, password };
}

const disconnectAudits = () =>
  kpi.test.app.db
    .selectFrom("audit_events")
    .select(["user_id", "result", "reason", "details"])
    .where("event_type", "=", "wifi_disconnect")
    .orderBy("audit_events.id")
    .execute();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "kpi-id-disconnect-"));
  makeCertificates(join(dir, "pki"));
  ports = { auth: await freePort(), acct: await freePort(), coa: await freePort(), radsecproxyUdp: await freePort() };
  const controllerPort = await freePort();
  kpi = await createListeningTestApp(aboveModelDatabase, {
    protocols: ["radius"],
    env: {
      RADIUS_REST_SECRET: restSecret,
      RADIUS_COA_SECRET: coaSecret,
      RADIUS_COA_SERVER: `127.0.0.1:${ports.coa}`,
    },
  });
  controller = await startControllerStandIn(join(dir, "controller"), controllerPort, controllerSecret);
  const raddb = join(dir, "raddb");
  renderFreeradius(raddb, join(dir, "pki"), ports, { port: controllerPort, secret: controllerSecret });
  freeradius = await startProcess(
    "freeradius",
    ["-X", "-d", raddb],
    {
      KPI_ID_RADIUS_URL: `${kpi.origin}/api/radius`,
      RADIUS_REST_SECRET: restSecret,
      RADSECPROXY_SECRET: "radsecproxy-secret-not-used-here",
      RADIUS_LOCAL_CLIENT_SECRET: clientSecret,
      RADIUS_COA_SECRET: coaSecret,
    },
    /Ready to process requests/,
  );
}, 120_000);

afterAll(async () => {
  await kpi?.test.app.wifiDisconnects.settled();
  await freeradius?.stop();
  await controller?.process.stop();
  await kpi?.test.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("disconnecting Wi-Fi devices when access ends (shipped FreeRADIUS, a stand-in controller)", () => {
  it("keeps the session accounting reports and shows where the password is in use; Stop ends it", async () => {
    const { cookie, password } = await personWithWifi("maria");
    const { acctSessionId, sessionClass } = await connected("maria@kpi.ua", password.password, "02-00-00-00-00-01");
    const listed = (await wifiOf(cookie)).passwords.find((each) => each.id === password.id);
    expect(listed?.sessions).toEqual([{ controller: "localhost", since: expect.any(String) }]);

    const stop = await accounting({
      "Acct-Status-Type": "Stop",
      "Acct-Session-Id": acctSessionId,
      "User-Name": "anonymous@kpi.ua",
      Class: sessionClass,
    });
    expect(stop).toMatch(/Received Accounting-Response/);
    expect((await wifiOf(cookie)).passwords.find((each) => each.id === password.id)?.sessions).toEqual([]);
  });

  it("ignores accounting whose Class is not one KPI ID gave (a visitor's, or made up)", async () => {
    const { cookie, password } = await personWithWifi("ihor");
    const made = Buffer.from("kpi-id:1.aaaaaaaaaaaaaaaaaaaaaa").toString("hex");
    const answer = await accounting({
      "Acct-Status-Type": "Start",
      "Acct-Session-Id": "forged-session",
      "User-Name": "anonymous@kpi.ua",
      Class: `0x${made}`,
    });
    expect(answer).toMatch(/Received Accounting-Response/);
    expect((await wifiOf(cookie)).passwords.find((each) => each.id === password.id)?.sessions).toEqual([]);
  });

  it("disconnects a disabled person's device at the controller holding it", async () => {
    const { person, password } = await personWithWifi("taras");
    const mac = "02-00-00-00-00-02";
    const { acctSessionId } = await connected("taras@kpi.ua", password.password, mac);
    const started = Date.now();
    await disableUser({ db: kpi.test.app.db, now: kpi.test.app.clock(), signOut: kpi.test.app.signOut }, person.id);
    const lines = await disconnectReceived(acctSessionId, started);
    expect(lines).toHaveLength(1);
    // The session as the controller reported it; FreeRADIUS's routing name is removed before it leaves (RFC 8559).
    expect(lines[0]).toBe(
      `Disconnect-Request User-Name=anonymous@kpi.ua Acct-Session-Id=${acctSessionId} Calling-Station-Id=${mac} ` +
        "NAS-Identifier=wlc-hall Operator-NAS-Identifier=",
    );
    await kpi.test.app.wifiDisconnects.settled();
    expect(await disconnectAudits()).toContainEqual({
      user_id: person.id,
      result: "success",
      reason: null,
      details: { trigger: "disabled", controller: "localhost", nasIdentifier: "wlc-hall" },
    });
  });

  it("disconnects the device of a person disabled with the CLI, and says so in its answer", async () => {
    const { person, password } = await personWithWifi("bohdan");
    const { acctSessionId } = await connected("bohdan@kpi.ua", password.password, "02-00-00-00-00-06");
    const started = Date.now();
    // The command sends its own Disconnect-Requests (surfaces/cli/wifi-disconnects.ts) and waits for the answers.
    const coa = { RADIUS_COA_SECRET: coaSecret, RADIUS_COA_SERVER: `127.0.0.1:${ports.coa}` };
    const run = await runCliOn(kpi.test.database.handle, ["user", "disable", "--username", "bohdan"], {
      env: { SESSION_SECRET: TEST_SESSION_SECRET, ...coa },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("Disabled bohdan; their sessions have ended; 1 of 1 connected device(s) disconnected");
    expect(await disconnectReceived(acctSessionId, started)).toHaveLength(1);
    expect(await disconnectAudits()).toContainEqual(
      expect.objectContaining({
        user_id: person.id,
        result: "success",
        details: expect.objectContaining({ trigger: "disabled" }),
      }),
    );
  });

  it("disconnects the device of a revoked password, and only that one", async () => {
    const { cookie, password } = await personWithWifi("olha");
    const other = await postJson(
      kpi.test.app,
      "/api/account/wifi",
      { name: "Phone" },
      { headers: { cookie, origin: kpi.origin } },
    );
    const phone: CreatedWifiPassword = other.json();
    const laptop = await connected("olha@kpi.ua", password.password, "02-00-00-00-00-03");
    const kept = await connected("olha@kpi.ua", phone.password, "02-00-00-00-00-04");
    const started = Date.now();
    const revoke = await postJson(kpi.test.app, `/api/account/wifi/${password.id}/revoke`, undefined, {
      headers: { cookie, origin: kpi.origin },
    });
    expect(revoke.statusCode).toBe(200);
    expect(await disconnectReceived(laptop.acctSessionId, started)).toHaveLength(1);
    await kpi.test.app.wifiDisconnects.settled();
    expect(controller.received().some((line) => line.includes(kept.acctSessionId))).toBe(false);
    expect((await wifiOf(cookie)).passwords.find((each) => each.id === phone.id)?.sessions).toHaveLength(1);
  });

  it("disconnects every device of a person whose Wi-Fi an operator turned off", async () => {
    const { person, password } = await personWithWifi("petro");
    const { acctSessionId } = await connected("petro@kpi.ua", password.password, "02-00-00-00-00-05");
    const helpdesk = await addOperator(kpi.test.app, ["helpdesk"]);
    const started = Date.now();
    const off = await postJson(
      kpi.test.app,
      `/api/admin/people/${person.id}/wifi/off`,
      {},
      {
        headers: { cookie: helpdesk.cookie, origin: kpi.origin },
      },
    );
    expect(off.statusCode).toBe(200);
    expect(await disconnectReceived(acctSessionId, started)).toHaveLength(1);
    await kpi.test.app.wifiDisconnects.settled();
    expect(await disconnectAudits()).toContainEqual(
      expect.objectContaining({
        user_id: person.id,
        result: "success",
        details: expect.objectContaining({ trigger: "wifi_off" }),
      }),
    );
  });
});
