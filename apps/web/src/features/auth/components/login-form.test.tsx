import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { browser } from "@/lib/browser.ts";
import { apiError, json, mockFetch, signedIn, unauthorized } from "../../../../test/fetch-mock.ts";
import { renderApp, student } from "../../../../test/render.tsx";

function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

async function fillForm(username: string, password: string) {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText("Логін"), username);
  await user.type(screen.getByLabelText("Пароль"), password);
  return user;
}

describe("the login form", () => {
  it("keeps submit disabled until both fields are filled", async () => {
    mockFetch({ "GET /user": unauthorized });
    renderApp("/uk/");
    const submit = await screen.findByRole("button", { name: "Увійти" });
    expect(submit).toBeDisabled();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Логін"), "student");
    expect(submit).toBeDisabled();
    await user.type(screen.getByLabelText("Пароль"), "x");
    expect(submit).toBeEnabled();
    await user.clear(screen.getByLabelText("Логін"));
    expect(submit).toBeDisabled();
  });

  it("shows and hides the password with its labels", async () => {
    mockFetch({ "GET /user": unauthorized });
    renderApp("/uk/");
    const user = await fillForm("student", "secret");
    expect(screen.getByLabelText("Пароль")).toHaveAttribute("type", "password");
    await user.click(screen.getByRole("button", { name: "Показати пароль" }));
    expect(screen.getByLabelText("Пароль")).toHaveAttribute("type", "text");
    await user.click(screen.getByRole("button", { name: "Приховати пароль" }));
    expect(screen.getByLabelText("Пароль")).toHaveAttribute("type", "password");
  });

  it("disables the fields and shows a spinner while signing in, then goes to apps keeping appId", async () => {
    const answer = deferred<Response>();
    let isSignedIn = false;
    const fetchSpy = mockFetch({
      "GET /user": () => (isSignedIn ? json(student) : unauthorized()),
      "POST /api/auth": () => answer.promise,
      "POST /api/auth/internal": () => {
        isSignedIn = true;
        return signedIn();
      },
    });
    const { router } = renderApp("/uk/?appId=zzz&google_auth_error=true");
    const user = await fillForm("student", "student-demo-2026");
    await user.click(screen.getByRole("button", { name: "Увійти" }));
    expect(screen.getByLabelText("Логін")).toBeDisabled();
    expect(screen.getByLabelText("Пароль")).toBeDisabled();
    expect(screen.getByRole("button", { name: "Увійти" })).toHaveAttribute("aria-busy", "true");
    expect(screen.getByRole("button", { name: "Увійти" })).toBeDisabled();

    answer.resolve(json({ sessionId: "grant-1" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/uk/apps"));
    // The unknown appId is then cleared by the apps screen and reported there.
    expect(await screen.findByTestId("redirect-error")).toBeInTheDocument();
    const login = fetchSpy.mock.calls.find(([url]) => String(url) === "/api/auth");
    expect(JSON.parse(String(login?.[1]?.body))).toEqual({ username: "student", password: "student-demo-2026" });
    const internal = fetchSpy.mock.calls.find(([url]) => String(url) === "/api/auth/internal");
    expect(JSON.parse(String(internal?.[1]?.body))).toEqual({ sessionId: "grant-1" });
    const headers = login?.[1]?.headers as Record<string, string>;
    expect(headers["Accept-Language"]).toBe("uk");
    expect(headers["Content-Type"]).toBe("application/json");
    expect(login?.[1]?.cache).toBe("no-store");
  });

  it("goes where the server says when a sign-in was waiting (an application's OpenID Connect sign-in)", async () => {
    const assign = vi.spyOn(browser, "assign").mockImplementation(() => undefined);
    mockFetch({
      "GET /user": unauthorized,
      "POST /api/auth": () => json({ sessionId: "grant-1" }),
      "POST /api/auth/internal": () => signedIn("/api/oidc/interaction/uid-1"),
    });
    renderApp("/uk/");
    const user = await fillForm("student", "student-demo-2026");
    await user.click(screen.getByRole("button", { name: "Увійти" }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith("/api/oidc/interaction/uid-1"));
  });

  it("shows the invalid-credentials alert when the password is wrong, and the fields come back", async () => {
    mockFetch({
      "GET /user": unauthorized,
      "POST /api/auth": () => apiError("auth.invalid_credentials"),
    });
    renderApp("/uk/");
    const user = await fillForm("student", "wrong");
    await user.click(screen.getByRole("button", { name: "Увійти" }));
    expect(await screen.findByTestId("invalid-credentials")).toHaveTextContent("Неправильний логін або пароль");
    expect(screen.getByLabelText("Логін")).toBeEnabled();
  });

  it("puts the focus back on the username after a failed attempt submitted with the button", async () => {
    mockFetch({
      "GET /user": unauthorized,
      "POST /api/auth": () => apiError("auth.invalid_credentials"),
    });
    renderApp("/uk/");
    const user = await fillForm("student", "wrong");
    await user.click(screen.getByRole("button", { name: "Увійти" }));
    await screen.findByTestId("invalid-credentials");
    // Disabled while the attempt ran, the fields had dropped the focus to <body>.
    await waitFor(() => expect(screen.getByLabelText("Логін")).toHaveFocus());
    // Typed over at once: the old username is selected.
    await user.keyboard("employee");
    expect(screen.getByLabelText("Логін")).toHaveValue("employee");
  });

  it("asks to sign in again, not to check the password, when the session exchange finds the grant used", async () => {
    mockFetch({
      "GET /user": unauthorized,
      "POST /api/auth": () => json({ sessionId: "grant-1" }),
      "POST /api/auth/internal": () => apiError("auth.grant_invalid"),
    });
    renderApp("/uk/");
    const user = await fillForm("student", "student-demo-2026");
    await user.click(screen.getByRole("button", { name: "Увійти" }));
    expect(await screen.findByTestId("sign-in-error")).toHaveTextContent("Увійдіть ще раз.");
    expect(screen.queryByTestId("invalid-credentials")).not.toBeInTheDocument();
  });

  it("keeps the invalid-credentials alert for a failure that carries no code", async () => {
    mockFetch({
      "GET /user": unauthorized,
      "POST /api/auth": () => json({ sessionId: "grant-1" }),
      "POST /api/auth/internal": () => new Response(null, { status: 401 }),
    });
    renderApp("/uk/");
    const user = await fillForm("student", "student-demo-2026");
    await user.click(screen.getByRole("button", { name: "Увійти" }));
    expect(await screen.findByTestId("invalid-credentials")).toBeInTheDocument();
  });

  it("shows the Google error from the URL, removes the parameter, and clears the alert on a new attempt", async () => {
    mockFetch({ "GET /user": unauthorized, "POST /api/auth": () => apiError("auth.invalid_credentials") });
    const { router } = renderApp("/uk/?google_auth_error=true&appId=7");
    expect(await screen.findByTestId("google-error")).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe("?appId=7"));
    const user = await fillForm("student", "x");
    await user.click(screen.getByRole("button", { name: "Увійти" }));
    await waitFor(() => expect(screen.queryByTestId("google-error")).not.toBeInTheDocument());
  });

  it("links Google and Diia keeping appId", async () => {
    mockFetch({ "GET /user": unauthorized });
    renderApp("/en/?appId=7&other=1");
    expect(await screen.findByTestId("google-login")).toHaveAttribute("href", "/api/google/redirect?appId=7");
    expect(await screen.findByTestId("diia-login")).toHaveAttribute("href", "/en/diia?appId=7");
  });
});
