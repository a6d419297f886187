import { once } from "node:events";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "@playwright/test";
import { build } from "vite";
import { demoUsers, expect, test } from "../fixtures.ts";
import { DemoSitePage } from "../pages/demo-site-page.ts";
import { type Language, LoginPage } from "../pages/login-page.ts";
import { demoOidcCredentials } from "../tools/oidc-relying-party.ts";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

/** The manual's code block (a plain ``` fence) that contains `marker`, exactly as its source shows it. */
function manualBlock(language: Language, marker: string): string {
  const source = readFileSync(join(repoRoot, `docs/integration-manual/${language}.md`), "utf8");
  const block = [...source.matchAll(/```\n([\s\S]*?)\n```/g)].find((match) => match[1]?.includes(marker));
  if (!block?.[1]) throw new Error(`no block with ${marker} in the ${language} manual`);
  return block[1];
}

/** A site on its own origin serving the files of `directory` (index.html at /). */
async function staticSite(directory: string): Promise<{ url: string; server: Server }> {
  const types: Record<string, string> = { ".html": "text/html", ".js": "text/javascript" };
  const server = createServer((request, response) => {
    const path = normalize(new URL(request.url ?? "/", "http://site").pathname).replace(/^\/+/, "") || "index.html";
    try {
      const body = readFileSync(join(directory, path));
      response.writeHead(200, { "content-type": `${types[extname(path)] ?? "text/plain"}; charset=utf-8` });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { url: `http://localhost:${(server.address() as AddressInfo).port}/`, server };
}

/** A fresh folder under the repository, so a build in it finds react in node_modules. */
function workFolder(name: string): string {
  const directory = join(repoRoot, ".tmp", `${name}-${process.pid}-${Date.now()}`);
  mkdirSync(directory, { recursive: true });
  return directory;
}

/** The person clicks the button, signs in at KPI ID, and lands on the app's callback, which shows them. */
async function signInThroughButton(page: Page, language: Language, caption: string, appId: string, baseURL: string) {
  await page.getByRole("link", { name: caption }).click();
  await expect(page).toHaveURL(`${baseURL}/${language}/?appId=${appId}`);
  await new LoginPage(page, language).signIn(demoUsers.student.username, demoUsers.student.password);
  // The demo site's registered callback redeems the ticket.
  await page.waitForURL(new RegExp(`^${DemoSitePage.origin()}/callback\\?ticketId=`));
  await expect(page.getByTestId("signed-in-name")).toHaveText(demoUsers.student.fullName);
}

interface Reader {
  kpiId: string;
  appId: string;
  placeholder: string;
}

/** The HTML block pasted into a page; returns the folder to serve. */
async function pasteHtml(directory: string, language: Language, { kpiId, appId, placeholder }: Reader) {
  const pasted = manualBlock(language, "kpi_id_signin")
    .replaceAll("https://id.kpi.ua", kpiId)
    .replace(placeholder, appId);
  expect(pasted).toContain(`data-app-id="${appId}"`);
  writeFileSync(join(directory, "index.html"), `<!doctype html><body><h1>Timetable</h1>${pasted}</body>`);
  return directory;
}

/**
 * The React block as printed, in each language, in a file of its own beside an app that renders the component: both
 * built by one Vite build (the run's only one besides the service's own, issue 75) into `dist/{uk,en}/index.html`.
 */
async function buildReact(directory: string, reader: Omit<Reader, "placeholder">) {
  const input: Record<string, string> = {};
  for (const language of ["uk", "en"] as const) {
    const page = join(directory, language);
    mkdirSync(page);
    writeFileSync(
      join(page, "kpi-id-button.tsx"),
      manualBlock(language, "useKpiIdSignin").replaceAll("https://id.kpi.ua", reader.kpiId),
    );
    writeFileSync(
      join(page, "main.tsx"),
      `import { createRoot } from "react-dom/client";
import { KpiIdButton } from "./kpi-id-button.tsx";
createRoot(document.getElementById("root")).render(<KpiIdButton appId=${JSON.stringify(reader.appId)} />);
`,
    );
    writeFileSync(
      join(page, "index.html"),
      '<!doctype html><body><h1>Timetable</h1><div id="root"></div><script type="module" src="./main.tsx"></script></body>',
    );
    input[language] = join(page, "index.html");
  }
  await build({
    root: directory,
    configFile: false,
    logLevel: "warn",
    build: { outDir: "dist", rollupOptions: { input } },
  });
  return join(directory, "dist");
}

/** The two languages' React sites, built the first time a test asks (each file runs whole in one worker). */
let reactBuild: { directory: string; dist: Promise<string> } | undefined;
function reactSites(reader: Omit<Reader, "placeholder">): Promise<string> {
  if (!reactBuild) {
    const directory = workFolder("manual-React");
    reactBuild = { directory, dist: buildReact(directory, reader) };
  }
  return reactBuild.dist;
}

/**
 * Issue 19: the manual's button blocks (HTML, section 2; React, section 3) in each language, with only the
 * service address and the app id made the reader's, sign a person in to the app in Chromium.
 */
test.describe("the integration manual's button blocks", () => {
  test.afterAll(() => {
    if (reactBuild) rmSync(reactBuild.directory, { recursive: true, force: true });
  });
  for (const [language, placeholder, caption] of [
    ["uk", "ВАШ-APP-ID", "Увійти з KPI ID"],
    ["en", "YOUR-APP-ID", "Sign in with KPI ID"],
  ] as const) {
    for (const kind of ["HTML", "React"] as const) {
      test(`the ${kind} block (${language}), with the app id, signs a person in to the app`, async ({
        page,
        baseURL,
      }) => {
        const kpiId = baseURL ?? "";
        const appId = demoOidcCredentials().id;
        const directory = kind === "HTML" ? workFolder("manual-HTML") : undefined;
        try {
          const served = directory
            ? await pasteHtml(directory, language, { kpiId, appId, placeholder })
            : await reactSites({ kpiId, appId });
          const site = await staticSite(served);
          try {
            await page.goto(kind === "HTML" ? site.url : `${site.url}${language}/index.html`);
            await signInThroughButton(page, language, caption, appId, kpiId);
          } finally {
            site.server.close();
          }
        } finally {
          if (directory) rmSync(directory, { recursive: true, force: true });
        }
      });
    }
  }
});
