import { afterAll, beforeAll } from "vitest";
import type { DatabaseKind } from "../../src/platform/db/index.ts";
import type { TestApp } from "./app.ts";
import { createListeningTestApp, type ListeningTestApp } from "./listening.ts";
import { newPersonSignedInToApplication } from "./oidc.ts";

/**
 * What the OpenID Connect tests that follow one person's tokens through a change share: a listening test app for
 * the whole describe (started in beforeAll, closed in afterAll), and at each `signedInWithTokens()` a new person
 * (`{usernamePrefix}{n}` with `password`) signed in to a fresh first-party application in a browser, holding tokens
 * with a refresh token (newPersonSignedInToApplication).
 */
export function oidcPeopleWithTokens(
  kind: DatabaseKind,
  { usernamePrefix, password, redirectUri }: { usernamePrefix: string; password: string; redirectUri: string },
) {
  let listening: ListeningTestApp | undefined;
  let people = 0;
  beforeAll(async () => {
    listening = await createListeningTestApp(kind);
  });
  afterAll(() => listening?.test.close());

  const started = (): ListeningTestApp => {
    if (!listening) throw new Error("the listening test app starts in beforeAll");
    return listening;
  };
  return {
    get test(): TestApp {
      return started().test;
    },
    /** http://127.0.0.1:PORT, the app's PUBLIC_URL. */
    get origin(): string {
      return started().origin;
    },
    async signedInWithTokens() {
      const { test, origin, issuer } = started();
      people += 1;
      const username = `${usernamePrefix}${people}`;
      const person = { username, fullName: "Олена Коваленко", password };
      const signed = await newPersonSignedInToApplication({ app: test.app, origin, issuer }, person, redirectUri);
      return { username, ...signed };
    },
  };
}
