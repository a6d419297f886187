import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { casPaths } from "@kpi-id/contracts";
import { DOMParser } from "@xmldom/xmldom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../support/app.ts";
import { casLogin, studentWithService } from "../../support/cas.ts";
import { aboveModelDatabase } from "../../support/databases.ts";
import { createListeningTestApp, freePort } from "../../support/listening.ts";

/** phpCAS's own SOAP request, byte for byte as CAS.php's SAML_* constants build it (php-cas 1.6.0). */
const phpCasRequest = (ticket: string) =>
  '<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/"><SOAP-ENV:Header/><SOAP-ENV:Body>' +
  '<samlp:Request xmlns:samlp="urn:oasis:names:tc:SAML:1.0:protocol"  MajorVersion="1" MinorVersion="1" ' +
  'RequestID="_192.168.16.51.1024506224022" IssueInstant="2002-06-19T17:03:44.022Z"><samlp:AssertionArtifact>' +
  `${ticket}</samlp:AssertionArtifact></samlp:Request></SOAP-ENV:Body></SOAP-ENV:Envelope>`;

/** A page protected by phpCAS as Moodle's "SAML 1.1" CAS version sets it up, printing what phpCAS learned. */
const samlPage = (origin: string, siteUrl: string) => `<?php
error_reporting(E_ALL & ~E_DEPRECATED & ~E_USER_DEPRECATED);
require_once '/usr/share/php/CAS.php';
phpCAS::client(SAML_VERSION_1_1, '127.0.0.1', ${new URL(origin).port}, '/cas', '${siteUrl}');
phpCAS::setServerLoginURL('${origin}/cas/login?service=' . urlencode(phpCAS::getServiceURL()));
phpCAS::setServerSamlValidateURL('${origin}/cas/samlValidate');
phpCAS::setNoCasServerValidation();
phpCAS::forceAuthentication();
header('Content-Type: application/json');
echo json_encode(['user' => phpCAS::getUser(), 'attributes' => phpCAS::getAttributes()]);
`;

const statusOf = (xml: string) =>
  new DOMParser()
    .parseFromString(xml, "text/xml")
    .getElementsByTagNameNS("urn:oasis:names:tc:SAML:1.0:protocol", "StatusCode")
    .item(0)
    ?.getAttribute("Value");

/** CAS's SAML 1.1 validation (issue 73, point 5): phpCAS with SAML_VERSION_1_1 signs a person in, as Moodle does. */
describe("CAS /samlValidate with phpCAS's SAML 1.1 client", () => {
  let t: TestApp;
  let origin: string;
  let php: ChildProcess;
  let siteUrl: string;
  let dir: string;
  beforeAll(async () => {
    const listening = await createListeningTestApp(aboveModelDatabase, { protocols: ["cas"] });
    t = listening.test;
    origin = listening.origin;
    const port = await freePort();
    siteUrl = `http://127.0.0.1:${port}`;
    dir = mkdtempSync(join(tmpdir(), "kpi-id-phpcas-saml-"));
    writeFileSync(join(dir, "index.php"), samlPage(origin, siteUrl));
    php = spawn("php", ["-d", `session.save_path=${dir}`, "-S", `127.0.0.1:${port}`, "-t", dir], { stdio: "ignore" });
    for (let attempt = 0; attempt < 100; attempt++) {
      if (
        await fetch(`${siteUrl}/x.txt`).then(
          () => true,
          () => false,
        )
      )
        break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
  afterAll(async () => {
    php?.kill("SIGTERM");
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("phpCAS learns the username and the service's attributes; a ticket used once more is refused", async () => {
    const service = `${siteUrl}/index.php`;
    const { student } = await studentWithService(t.app, service, { attributes: ["uid", "displayName", "affiliation"] });
    const first = await fetch(service, { redirect: "manual" });
    const phpSession = String(first.headers.get("set-cookie")).split(";")[0] ?? "";
    expect(first.headers.get("location")).toBe(`${origin}${casPaths.login}?service=${encodeURIComponent(service)}`);
    const { location } = await casLogin(t.app, student.cookie, { service });
    // phpCAS validates at /samlValidate, then sends the browser to the address without the ticket.
    const validated = await fetch(location, { redirect: "manual", headers: { cookie: phpSession } });
    expect(validated.headers.get("location")).toBe(service);
    // phpCAS names its session after the ticket once it is validated.
    const renamed = String(validated.headers.get("set-cookie") ?? phpSession).split(";")[0] ?? "";
    const page = await fetch(service, { headers: { cookie: renamed } });
    expect(await page.json()).toEqual({
      user: student.username,
      attributes: expect.objectContaining({
        uid: student.username,
        displayName: student.person.full_name,
        affiliation: ["student", "member"],
        isFromNewLogin: "false",
      }),
    });

    const ticket = new URL(location).searchParams.get("ticket") ?? "";
    const replay = await fetch(`${origin}${casPaths.samlValidate}?TARGET=${encodeURIComponent(service)}`, {
      method: "POST",
      headers: { "content-type": "text/xml", soapaction: "http://www.oasis-open.org/committees/security" },
      body: phpCasRequest(ticket),
    });
    expect(replay.status).toBe(200);
    const refused = await replay.text();
    expect(statusOf(refused)).toBe("saml1p:Responder");
    expect(refused).toContain("INVALID_TICKET");
    expect(refused).not.toContain("NameIdentifier");
  });

  it("a request that is not a samlp:Request is the requester's fault, never a 403 or a 500", async () => {
    const target = `?TARGET=${encodeURIComponent(`${siteUrl}/index.php`)}`;
    for (const body of [
      "",
      "<not-xml",
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "ST-1">]><x>&a;</x>',
      phpCasRequest(""),
    ]) {
      const answer = await t.app.inject({
        method: "POST",
        url: `${casPaths.samlValidate}${target}`,
        headers: { "content-type": "text/xml" },
        payload: body,
      });
      expect(answer.statusCode, body).toBe(200);
      expect(statusOf(answer.body), body).toBe("saml1p:Requester");
    }
    const tooLarge = await t.app.inject({
      method: "POST",
      url: `${casPaths.samlValidate}${target}`,
      headers: { "content-type": "text/xml" },
      payload: phpCasRequest("x".repeat(20_000)),
    });
    expect(tooLarge.statusCode).toBe(413);
  });
});
