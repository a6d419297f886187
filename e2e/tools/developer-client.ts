import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, type Page } from "@playwright/test";
import * as client from "openid-client";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

/** The manual's OpenID Connect sample (section 8), exactly as printed in that language. */
function manualOidcSample(language: "uk" | "en"): string {
  const source = readFileSync(join(repoRoot, `docs/integration-manual/${language}.md`), "utf8");
  const block = [...source.matchAll(/```js\n([\s\S]*?)\n```/g)].find((match) => match[1]?.startsWith("// oidc.mjs"));
  if (!block?.[1]) throw new Error(`no oidc.mjs sample in the ${language} manual`);
  return block[1];
}

export interface RunningSample {
  /** Where the sample answers: its sign-in page at /, its redirect URI at /oidc/callback. */
  site: string;
  stop: () => void;
}

/**
 * Saves the manual's oidc.mjs under the repository (its `import "openid-client"` finds the package there) and
 * runs it as the manual says (`node oidc.mjs`) with an application's id and secret, on `port`.
 */
export async function startManualOidcSample(options: {
  language: "uk" | "en";
  issuer: string;
  appId: string;
  secret: string;
  port: number;
}): Promise<RunningSample> {
  const directory = join(repoRoot, ".tmp", `developer-sample-${process.pid}-${Date.now()}`);
  mkdirSync(directory, { recursive: true });
  const file = join(directory, "oidc.mjs");
  writeFileSync(file, manualOidcSample(options.language));
  const child: ChildProcess = spawn(process.execPath, [file], {
    cwd: directory,
    env: {
      ...process.env,
      KPI_ID_ISSUER: options.issuer,
      KPI_ID_APP_ID: options.appId,
      KPI_ID_APP_SECRET: options.secret,
      PORT: String(options.port),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let printed = "";
  const collect = (chunk: Buffer) => {
    printed += chunk.toString();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const site = `http://localhost:${options.port}`;
  const stop = () => {
    child.kill();
    rmSync(directory, { recursive: true, force: true });
  };
  await expect
    .poll(
      async () => {
        if (child.exitCode !== null) return `exited: ${printed}`;
        return fetch(`${site}/`).then(
          (answer) => answer.status,
          () => "not yet",
        );
      },
      { timeout: 30_000, message: `the oidc.mjs sample at ${site}` },
    )
    .toBe(200)
    .catch((error: unknown) => {
      stop();
      throw error;
    });
  return { site, stop };
}

/**
 * A sign-in to an application by its https redirect URI, which no server here answers: the browser goes
 * through KPI ID (`whileThere`: consent and the like), the code it is sent back with is taken from the
 * request to the redirect URI and redeemed with the application's secret, as the application's server
 * would. Answers the userinfo's name.
 */
export async function signInThroughRedirect(options: {
  page: Page;
  issuer: string;
  appId: string;
  secret: string;
  redirectUri: string;
  whileThere: () => Promise<void>;
}): Promise<string> {
  const { page, redirectUri } = options;
  const config = await client.discovery(new URL(options.issuer), options.appId, options.secret, undefined, {
    execute: [client.allowInsecureRequests],
  });
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: "openid profile",
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
  });
  // The application's own site: answered here, so the browser shows a page instead of a failed address.
  await page.route(`${new URL(redirectUri).origin}/**`, (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>App</title><p>back</p>" }),
  );
  const back = page.waitForRequest((request) => request.url().startsWith(`${redirectUri}?`), { timeout: 60_000 });
  await page.goto(url.href);
  await options.whileThere();
  const callback = new URL((await back).url());
  const tokens = await client.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: verifier,
    expectedState: state,
  });
  const { sub } = tokens.claims() ?? { sub: "" };
  const me = await client.fetchUserInfo(config, tokens.access_token, sub);
  return String(me.name ?? "");
}
