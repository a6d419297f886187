import { spawn } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../support/app.ts";
import { addStudent, registerApplication } from "../support/developers.ts";
import { createListeningTestApp } from "../support/listening.ts";
import { manualBlock, sampleDirectory } from "../support/manual-samples.ts";

/** Runs the manual's device.mjs as the manual says, until it exits; answers what it printed. */
function runDeviceSample(file: string, env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file], { env: { ...process.env, ...env } });
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
      // Asked for a code: the person would answer now; the test only needed to see it was given.
      if (out.includes("enter the code")) child.kill();
    });
    child.stderr.on("data", (chunk) => {
      out += chunk;
    });
    child.on("exit", (code) => resolve({ code, out }));
  });
}

/** Issue 60: the manual's device sample runs as a public client and says why KPI ID refused it. */
describe.each(["uk", "en"] as const)("the integration manual's device sample (%s)", (language) => {
  let t: TestApp;
  let issuer: string;
  let origin: string;
  const directory = sampleDirectory();
  beforeAll(async () => {
    ({ test: t, issuer, origin } = await createListeningTestApp("pglite"));
  });
  afterAll(async () => {
    await t.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it("gets a code for a command-line tool without a secret, and prints error_description once device sign-in is off", async () => {
    const file = join(directory, `device-${language}.mjs`);
    writeFileSync(file, manualBlock(language, "js", "// device.mjs"));
    const owner = await addStudent(t.app, "cli");
    const { application } = await registerApplication(
      t.app,
      owner.cookie,
      { title: "Термінал", titleEn: "Terminal", clientType: "device" },
      origin,
    );
    const env = { KPI_ID_ISSUER: issuer, KPI_ID_APP_ID: application.id, KPI_ID_LANGUAGE: language };
    const asked = await runDeviceSample(file, env);
    expect(asked.out).toContain("enter the code");
    await t.app.inject({
      method: "POST",
      url: `/api/developers/applications/${application.id}/device-flow`,
      payload: { enabled: false },
      headers: { cookie: owner.cookie, origin },
    });
    const refused = await runDeviceSample(file, env);
    expect(refused.code).not.toBe(0);
    // The code and KPI ID's words for it, not the bare code (issue 60).
    expect(refused.out).toContain("No device code: invalid_client: client authentication failed");
  });
});
