import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApplication } from "../src/apps/service.ts";
import { addPerson, grantAccess } from "./support/campus.ts";
import { createListeningTestApp, freePort, type ListeningTestApp } from "./support/listening.ts";

const manual = (lang: string) =>
  readFileSync(new URL(`../../../docs/integration-manual/${lang}.md`, import.meta.url), "utf8");

/** The fenced block of the given language whose first line names the file, exactly as the manual shows it. */
function sample(lang: string, fence: string, firstLine: string): string {
  const blocks = [...manual(lang).matchAll(new RegExp(`\`\`\`${fence}\\n([\\s\\S]*?)\\n\`\`\``, "g"))];
  const found = blocks.map((block) => block[1] ?? "").find((code) => code.startsWith(firstLine));
  if (!found) throw new Error(`no ${firstLine} sample in the ${lang} manual`);
  return found;
}

const samples = [
  { name: "Node.js", file: "callback.mjs", command: process.execPath, code: sample("en", "js", "// callback.mjs") },
  { name: "Python", file: "callback.py", command: "python3", code: sample("en", "python", "# callback.py") },
];
const password = "a long passphrase, no rules";
// A name that runs script wherever a sample forgets to escape it.
const fullName = `Олена <img src=x onerror="alert(1)"> Коваленко`;

/** One browser: its cookies per origin, and every navigation's answer. */
function browser() {
  const jars = new Map<string, Map<string, string>>();
  return {
    async open(url: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}) {
      const origin = new URL(url).origin;
      const jar = jars.get(origin) ?? new Map<string, string>();
      jars.set(origin, jar);
      const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
      const answer = await fetch(url, { ...init, redirect: "manual", headers: { ...init.headers, cookie } });
      for (const line of answer.headers.getSetCookie()) {
        const [pair = ""] = line.split(";");
        const at = pair.indexOf("=");
        const value = pair.slice(at + 1);
        if (value === "" || /max-age=0/i.test(line)) jar.delete(pair.slice(0, at));
        else jar.set(pair.slice(0, at), value);
      }
      return { status: answer.status, location: answer.headers.get("location"), body: await answer.text() };
    },
  };
}

async function listening(url: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`${url} never answered`);
}

/**
 * Issue 19: the manual's samples, run exactly as pasted against a live KPI ID, sign a person in: the
 * sign-in link with state, sign-in, the callback, the ticket redeemed, the name escaped.
 */
describe("the integration manual's samples", () => {
  let kpi: ListeningTestApp;
  let personId: string;
  const running: ChildProcess[] = [];
  const directory = mkdtempSync(join(tmpdir(), "kpi-id-manual-"));

  beforeAll(async () => {
    kpi = await createListeningTestApp("pglite");
    personId = (await addPerson(kpi.test.app, { username: "o.kovalenko", fullName }, password)).id;
  });
  afterAll(async () => {
    for (const child of running) child.kill();
    await kpi?.test.close();
  });

  it("are the same code in the Ukrainian and the English manual", () => {
    expect(sample("uk", "js", "// callback.mjs")).toBe(samples[0]?.code);
    expect(sample("uk", "python", "# callback.py")).toBe(samples[1]?.code);
  });

  it.each(samples)("the $name sample signs a person in, escaping the name", async ({ file, command, code }) => {
    const port = await freePort();
    const site = `http://localhost:${port}`;
    const { application, secret } = await createApplication(kpi.test.app.db, {
      name: `manual-${file.replace(".", "-")}`,
      title: "Розклад",
      callbackUrl: `${site}/kpi-id/callback`,
    });
    await grantAccess(kpi.test.app.db, personId, application.id);
    writeFileSync(join(directory, file), code);
    const env = { ...process.env, KPI_ID_URL: kpi.origin, KPI_ID_APP_ID: application.id, KPI_ID_APP_SECRET: secret };
    const child = spawn(command, [join(directory, file)], { env: { ...env, PORT: String(port) }, stdio: "ignore" });
    running.push(child);
    await listening(site);
    const person = browser();

    // A callback without a ticket, or with a state this browser never got, is shown the sign-in page.
    expect((await person.open(`${site}/kpi-id/callback`)).body).toContain("Sign in with KPI ID");

    const start = await person.open(`${site}/`);
    const link = new URL((/href="([^"]+)"/.exec(start.body)?.[1] ?? "").replaceAll("&amp;", "&"));
    expect(link.origin).toBe(kpi.origin);
    expect(link.searchParams.get("appId")).toBe(application.id);
    const state = link.searchParams.get("state") ?? "";
    expect(state).toMatch(/^[0-9a-f]{32}$/);

    // The sign-in page: the password, then (as the page does after sign-in) the application with its link.
    const json = { "content-type": "application/json", origin: kpi.origin };
    const grant = await person.open(`${kpi.origin}/api/auth`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ username: "o.kovalenko", password }),
    });
    const { sessionId } = JSON.parse(grant.body) as { sessionId: string };
    await person.open(`${kpi.origin}/api/auth/internal`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ sessionId }),
    });
    const toApplication = await person.open(`${kpi.origin}/api/app-redirect${link.search}`);
    const callback = new URL(toApplication.location ?? "");
    expect(callback.searchParams.get("state")).toBe(state);

    // Login CSRF: another browser handed this callback (a ticket it did not start) is not signed in,
    // and the sample did not spend the ticket on it.
    expect((await browser().open(callback.href)).body).toContain("Sign in with KPI ID");

    const signedIn = await person.open(callback.href);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toContain("<p>Hello, Олена &lt;img src=x onerror=");
    expect(signedIn.body).not.toContain("<img");
    // Redeemed once, by the sample: the ticket is spent.
    const again = await person.open(callback.href);
    expect(again.body).not.toContain("Hello");
  });
});
