import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { json, mockFetch, unauthorized } from "../../../test/fetch-mock.ts";
import { renderApp, student } from "../../../test/render.tsx";

describe("the entry gate", () => {
  it("shows a spinner while the user loads, then the login screen to a visitor", async () => {
    let answer: (response: Response) => void = () => undefined;
    mockFetch({ "GET /user": () => new Promise<Response>((done) => (answer = done)) });
    renderApp("/uk/");
    // The spinner's words go in just after its status (live-status.tsx), so that a screen reader reads them.
    await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent("Завантаження…"));
    expect(screen.queryByLabelText("Логін")).not.toBeInTheDocument();
    answer(unauthorized());
    expect(await screen.findByLabelText("Логін")).toBeInTheDocument();
  });

  it("sends a signed-in person to the apps list keeping the query string", async () => {
    mockFetch({ "GET /user": () => json({ ...student, applications: [] }) });
    const { router } = renderApp("/en/?appId=unknown&x=1");
    await waitFor(() => expect(router.state.location.pathname).toBe("/en/apps"));
    expect(await screen.findByTestId("redirect-error")).toBeInTheDocument();
  });

  it("treats a redirect from /user as nobody signed in", async () => {
    const spy = mockFetch({
      "GET /user": (_url, init) => {
        // A real browser rejects the fetch when redirect is "error" and the answer redirects.
        if (init.redirect === "error") throw new TypeError("redirected");
        return json(student);
      },
    });
    renderApp("/uk/diia");
    expect(await screen.findByRole("heading", { name: "Вхід через Дію" })).toBeInTheDocument();
    expect(spy.mock.calls.find(([url]) => url === "/user")?.[1]?.redirect).toBe("error");
  });
});

describe("the protected gate", () => {
  it("sends an anonymous visitor to '/' (and from there to the login)", async () => {
    mockFetch({ "GET /user": unauthorized });
    const { router } = renderApp("/uk/apps?appId=1");
    await waitFor(() => expect(router.state.location.pathname).toBe("/uk/"));
    expect(await screen.findByLabelText("Логін")).toBeInTheDocument();
  });

  it("hands the signed-in person to the page", async () => {
    mockFetch({ "GET /user": () => json(student) });
    renderApp("/uk/apps");
    expect(await screen.findByRole("heading", { name: "Вітаємо, Олена Коваленко!" })).toBeInTheDocument();
  });
});
