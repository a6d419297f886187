import { describe, expect, it } from "vitest";
import { validateSamlMessageSchema } from "../../../src/protocols/saml/message-schema.ts";
import { XmlRefusedError } from "../../../src/protocols/saml/xml-guard.ts";

const request = (extra = "") =>
  '<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ' +
  `xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_a1" Version="2.0" IssueInstant="2026-11-29T08:00:00Z"${extra}>` +
  "<saml:Issuer>https://library.example.org/sp</saml:Issuer></samlp:AuthnRequest>";

describe("the schema check of SAML messages (one worker thread that stays)", () => {
  it("accepts a conforming AuthnRequest and refuses one the schema does not allow, and goes on after", async () => {
    await expect(validateSamlMessageSchema(request())).resolves.toBeUndefined();
    const refused = validateSamlMessageSchema(request(' Bogus="1"'));
    await expect(refused).rejects.toBeInstanceOf(XmlRefusedError);
    await expect(refused).rejects.toThrow(/schema: .*Bogus/);
    await expect(validateSamlMessageSchema(request())).resolves.toBeUndefined();
  });

  it("checks many at once, each with its own answer", async () => {
    const answers = await Promise.allSettled(
      Array.from({ length: 6 }, (_, index) => validateSamlMessageSchema(request(index % 2 ? ' Bogus="1"' : ""))),
    );
    expect(answers.map((answer) => answer.status)).toEqual([
      "fulfilled",
      "rejected",
      "fulfilled",
      "rejected",
      "fulfilled",
      "rejected",
    ]);
  });

  it("costs well under a new thread's 180 ms of CPU a message (the campus rush's SAML sign-ins)", async () => {
    await validateSamlMessageSchema(request());
    const began = process.cpuUsage();
    for (let index = 0; index < 10; index++) await validateSamlMessageSchema(request());
    const used = process.cpuUsage(began);
    expect((used.user + used.system) / 1000 / 10).toBeLessThan(100);
  });
});
