import type { DeviceRequest } from "@kpi-id/contracts";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { browser } from "@/lib/browser.ts";
import { apiError, json, mockFetch } from "../../../../test/fetch-mock.ts";
import { renderApp, renderWithProviders, student } from "../../../../test/render.tsx";
import { formatUserCode } from "./device-code-form.tsx";
import { DeviceResult } from "./device-result.tsx";

const request: DeviceRequest = {
  xsrf: "form-token",
  userCode: "1234-5678",
  application: { title: "Розклад-бот", description: "Бот у Telegram" },
  scopes: ["profile"],
  person: { name: student.fullName },
  access: true,
};

describe("the device sign-in page", () => {
  it("keeps eight digits of whatever is typed, as the device shows them", () => {
    expect(formatUserCode("12345678")).toBe("1234-5678");
    expect(formatUserCode(" 1234 567a8 9")).toBe("1234-5678");
    expect(formatUserCode("123")).toBe("123");
  });

  it("sends a person who is not signed in to sign in, the code kept for the way back", async () => {
    const assign = vi.spyOn(browser, "assign").mockImplementation(() => undefined);
    let remembered: unknown;
    mockFetch({
      "GET /user": () => apiError("auth.not_authenticated"),
      "POST /api/device/continue": (_url, init) => {
        remembered = JSON.parse(String(init.body));
        return json({ ok: true });
      },
    });
    renderApp("/en/device?user_code=1234-5678");
    await waitFor(() => expect(assign).toHaveBeenCalledWith("/en/"));
    expect(remembered).toEqual({ userCode: "1234-5678" });
  });

  it("shows what the code asks for, in words, with the provider's form to allow or deny it", async () => {
    let posted = "";
    mockFetch({
      "GET /user": () => json(student),
      "GET /oidc/device": () => json({ xsrf: "form-token" }),
      "POST /oidc/device": (_url, init) => {
        posted = String(init.body);
        return json(request);
      },
    });
    renderApp("/uk/device?user_code=12345678");
    await userEvent.setup().click(await screen.findByRole("button", { name: "Продовжити" }));
    expect(await screen.findByTestId("device-user-code")).toHaveTextContent("1234-5678");
    expect(posted).toBe("xsrf=form-token&user_code=1234-5678");
    expect(screen.getByText("Прізвище та ім'я")).toBeInTheDocument();
    const allow = screen.getByRole("button", { name: "Дозволити" });
    expect(allow.closest("form")).toHaveAttribute("action", "/oidc/device");
    expect(allow).toHaveAttribute("name", "confirm");
    expect(screen.getByRole("button", { name: "Відмовити" })).toHaveAttribute("name", "abort");
  });

  it("says a wrong code's message and gets a new form token for the next try", async () => {
    let forms = 0;
    mockFetch({
      "GET /user": () => json(student),
      "GET /oidc/device": () => {
        forms += 1;
        return json({ xsrf: `token-${forms}` });
      },
      "POST /oidc/device": () => apiError("device.code_not_found"),
    });
    renderApp("/en/device");
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("Code from the device"), "00000000");
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(await screen.findByTestId("device-code-error")).toHaveTextContent("There is no such code.");
    await waitFor(() => expect(forms).toBe(2));
  });

  it.each([
    [false, "consent-not-reviewed", "Not reviewed by the university"],
    [true, "consent-reviewed", "Reviewed by the university"],
  ])(
    "marks whether the university reviewed the device's application (reviewed: %s), as the consent screen does",
    async (reviewed, testId, mark) => {
      mockFetch({
        "GET /user": () => json(student),
        "GET /oidc/device": () => json({ xsrf: "form-token" }),
        "POST /oidc/device": () => json({ ...request, reviewed }),
      });
      renderApp("/en/device?user_code=12345678");
      await userEvent.setup().click(await screen.findByRole("button", { name: "Continue" }));
      expect(await screen.findByTestId(testId)).toHaveTextContent(mark);
      expect(screen.getByRole("button", { name: "Allow" })).toBeInTheDocument();
    },
  );

  it.each([
    ["allowed", "device-allowed", "The device is signed in"],
    ["denied", "device-denied", "The device was not signed in"],
  ])("says where the provider left the browser: %s", async (result, testId, title) => {
    mockFetch({ "GET /user": () => json(student) });
    renderApp(`/en/device?result=${result}`);
    expect(await screen.findByTestId(testId)).toHaveTextContent(title);
  });

  it.each([
    ["allowed", "Пристрій увійшов із вашим KPI ID."],
    ["denied", "Пристрій дізнається, що ви відмовили, і не отримає даних про вас."],
  ] as const)(
    "says the result (%s) through a status that enters empty, the line seen from the start",
    async (result, words) => {
      sessionStorage.clear();
      renderWithProviders(<DeviceResult result={result} />);
      // A status mounted with its words already in is often not read (live-status.tsx).
      const said = screen.getByRole("status");
      expect(said).toHaveTextContent(/^$/);
      // The line is seen where it was from the start; screen readers get it once, from the status.
      expect(screen.getByText(words)).toHaveAttribute("aria-hidden", "true");
      await waitFor(() => expect(said).toHaveTextContent(words));
    },
  );
});
