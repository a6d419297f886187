import { demoUsers, expect, test } from "../fixtures.ts";

test.describe("sign-in errors a person can act on", () => {
  for (const language of ["uk", "en"] as const) {
    test(`opened at 127.0.0.1 instead of localhost, the login screen says where to open KPI ID (${language})`, async ({
      baseURL,
      loginPage,
      enLoginPage,
    }) => {
      // The server's PUBLIC_URL is http://localhost:PORT; 127.0.0.1 reaches the same server under another origin.
      const publicUrl = String(baseURL);
      const otherLoopbackName = publicUrl.replace("//localhost:", "//127.0.0.1:");
      expect(otherLoopbackName).not.toBe(publicUrl);
      const login = language === "uk" ? loginPage : enLoginPage;
      await login.goto("", otherLoopbackName);
      await login.signIn(demoUsers.student.username, demoUsers.student.password);
      const advice =
        language === "uk" ? `Відкрийте ${publicUrl} і увійдіть там.` : `Open ${publicUrl} and sign in there.`;
      await expect(login.signInError).toContainText(advice);
      await expect(login.invalidCredentials).toHaveCount(0);
      await expect(login.username).toBeEnabled();
    });
  }
});
