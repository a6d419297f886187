import type { AdminMe, ErrorBody } from "@kpi-id/contracts";
import { errorMessages, errorStatus } from "@kpi-id/contracts";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { json, mockFetch } from "../../../../test/fetch-mock.ts";
import { renderApp } from "../../../../test/render.tsx";

const admin: AdminMe = {
  username: "admin",
  fullName: "Адмін Консолі",
  roles: ["admin"],
  permissions: ["apps.view", "apps.manage"],
};

/** The server's refusal of one field, as POST /api/admin/applications answers it. */
function refusal(code: "app.invalid_name" | "app.invalid_url", path: string) {
  const body: ErrorBody = { code, message: errorMessages.en[code], details: [{ path, message: "refused" }] };
  return new Response(JSON.stringify(body), {
    status: errorStatus[code],
    headers: { "content-type": "application/json" },
  });
}

function openApplications(language: "uk" | "en", answer: () => Response) {
  const calls = mockFetch({
    "GET /api/admin/me": () => json(admin),
    "GET /api/admin/applications": () => json({ applications: [] }),
    "POST /api/admin/applications": answer,
  });
  renderApp(`/${language}/admin/applications`);
  return { calls, user: userEvent.setup() };
}

const posts = (calls: ReturnType<typeof mockFetch>) =>
  calls.mock.calls.filter(([, init]) => (init as RequestInit | undefined)?.method === "POST").length;

/** Issue 37: registering an application says which field is wrong and why, in the page's language. */
describe("registering an application in the console", () => {
  it("asks for every empty field in Ukrainian, not in the browser's words, and sends nothing", async () => {
    const { calls, user } = openApplications("uk", () => json({}));
    await user.click(await screen.findByRole("button", { name: "Зареєструвати застосунок" }));
    expect(await screen.findByText("Заповніть поле «Назва (ідентифікатор)».")).toBeInTheDocument();
    expect(screen.getByText("Заповніть поле «Заголовок».")).toBeInTheDocument();
    expect(screen.getByText("Заповніть поле «Адреса повернення».")).toBeInTheDocument();
    expect(screen.getByLabelText("Назва (ідентифікатор)")).toHaveFocus();
    expect(screen.getByLabelText("Назва (ідентифікатор)")).toHaveAttribute("aria-invalid", "true");
    expect(posts(calls)).toBe(0);
  });

  it("puts the server's reason beside the name it refused, in Ukrainian, and moves there", async () => {
    const { user } = openApplications("uk", () => refusal("app.invalid_name", "body.name"));
    await user.type(await screen.findByLabelText("Назва (ідентифікатор)"), "розклад");
    await user.type(screen.getByLabelText("Заголовок"), "Розклад");
    await user.type(screen.getByLabelText("Адреса повернення"), "https://timetable.kpi.ua/cb");
    await user.click(screen.getByRole("button", { name: "Зареєструвати застосунок" }));
    const error = await screen.findByTestId("create-name-error");
    expect(error).toHaveTextContent("може містити лише латинські літери, цифри");
    const name = screen.getByLabelText("Назва (ідентифікатор)");
    await waitFor(() => expect(name).toHaveFocus());
    expect(name).toHaveAttribute("aria-invalid", "true");
    expect(name.getAttribute("aria-describedby")).toContain(error.id);
  });

  it("says in English why the callback URL was refused", async () => {
    const { user } = openApplications("en", () => refusal("app.invalid_url", "body.callbackUrl"));
    await user.type(await screen.findByLabelText("Name (identifier)"), "timetable");
    await user.type(screen.getByLabelText("Title"), "Розклад");
    await user.type(screen.getByLabelText("Callback URL"), "http://timetable.kpi.ua/cb");
    await user.click(screen.getByRole("button", { name: "Register an application" }));
    expect(await screen.findByTestId("create-callbackUrl-error")).toHaveTextContent(
      "The address must be an absolute https URL",
    );
    await waitFor(() => expect(screen.getByLabelText("Callback URL")).toHaveFocus());
  });
});
