import type { DiiaAppLink } from "@kpi-id/contracts";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { browser } from "@/lib/browser.ts";
import { apiError, json, mockFetch, signedIn, unauthorized } from "../../../../test/fetch-mock.ts";
import { renderApp, renderWithProviders, student } from "../../../../test/render.tsx";
import { MAX_UNSCANNED_CODES, PROGRESS_TICK_MS } from "../api/use-diia-sign-in.ts";
import { DiiaLogin } from "./diia-login.tsx";

function appLinks() {
  let issued = 0;
  return () => {
    issued += 1;
    const link: DiiaAppLink = {
      deepLink: `https://diia.app/request/${issued}`,
      pageLink: `https://diia.app/request/${issued}`,
      requestId: `req-${issued}`,
      createdAt: new Date().toISOString(),
    };
    return json(link);
  };
}

describe("the Diia screen", () => {
  it("shows a skeleton, then the QR code with its refresh progress and 'last updated'", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((done) => (release = done));
    const links = appLinks();
    mockFetch({
      "GET /user": unauthorized,
      "GET /api/diia/app-link": async () => {
        await gate;
        return links();
      },
      "GET /api/diia/check-request": () => json({ status: "Processing" }),
    });
    renderApp("/uk/diia");
    expect(await screen.findByTestId("diia-skeleton")).toBeInTheDocument();
    release();
    const qr = await screen.findByRole("img", { name: "QR-код для входу через Дію" });
    expect(qr.tagName.toLowerCase()).toBe("svg");
    expect(qr).toHaveAttribute("width", "364");
    expect(screen.getByRole("progressbar", { name: "Час до оновлення QR-коду" })).toHaveAttribute(
      "aria-valuemax",
      "120000",
    );
    expect(screen.getByTestId("diia-last-updated")).toHaveTextContent("Оновлено щойно");
  });

  it("says it prepares the code through a status that enters the page empty and gets its words after", async () => {
    // The link does not come: the screen stays on its skeleton.
    mockFetch({ "GET /api/diia/app-link": () => new Promise<Response>(() => undefined) });
    renderWithProviders(<DiiaLogin onSignedIn={() => undefined} />);
    // A status mounted with its words (or an aria-label) already in is often not read (live-status.tsx).
    const preparing = screen.getByRole("status");
    expect(preparing).toHaveTextContent(/^$/);
    expect(preparing).toHaveAccessibleName("");
    expect(preparing).toContainElement(screen.getByTestId("diia-skeleton"));
    await waitFor(() => expect(preparing).toHaveTextContent("Готуємо QR-код…"));
  });

  it("moves the bar toward the next code every 100 ms and counts the seconds since the code was fetched", async () => {
    vi.useFakeTimers();
    mockFetch({
      "GET /api/diia/app-link": appLinks(),
      "GET /api/diia/check-request": () => json({ status: "Processing" }),
    });
    renderWithProviders(<DiiaLogin onSignedIn={() => undefined} />);
    // Effects start after the first frame: let the screen settle, then watch whole steps.
    await vi.advanceTimersByTimeAsync(1_000);
    const bar = screen.getByRole("progressbar", { name: "Час до оновлення QR-коду" });
    const at = () => Number(bar.getAttribute("aria-valuenow"));
    const start = at();
    await vi.advanceTimersByTimeAsync(PROGRESS_TICK_MS);
    expect(at() - start).toBe(PROGRESS_TICK_MS);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(at() - start).toBe(PROGRESS_TICK_MS + 5_000);
    expect(screen.getByTestId("diia-last-updated")).toHaveTextContent("Оновлено 6 секунд тому");
  });

  it("exchanges the sessionId once Diia reports the scan, then goes on to the app the appId names", async () => {
    vi.spyOn(browser, "assign").mockImplementation(() => undefined);
    const replace = vi.spyOn(browser, "replace").mockImplementation(() => undefined);
    let isSignedIn = false;
    const spy = mockFetch({
      "GET /user": () => (isSignedIn ? json(student) : unauthorized()),
      "GET /api/diia/app-link": appLinks(),
      "GET /api/diia/check-request": () => json({ status: "Finished", sessionId: "grant-9" }),
      "POST /api/auth/internal": () => {
        isSignedIn = true;
        return signedIn();
      },
    });
    const { router } = renderApp(`/uk/diia?appId=${student.applications[0]?.id}&x=1`);
    await waitFor(() => expect(router.state.location.pathname).toBe("/uk/apps"));
    await waitFor(() => expect(replace).toHaveBeenCalledWith(`/api/app-redirect?appId=${student.applications[0]?.id}`));
    const check = spy.mock.calls.find(([url]) => String(url).startsWith("/api/diia/check-request"));
    expect(String(check?.[0])).toBe("/api/diia/check-request?requestId=req-1");
    const internal = spy.mock.calls.find(([url]) => url === "/api/auth/internal");
    expect(JSON.parse(String(internal?.[1]?.body))).toEqual({ sessionId: "grant-9" });
  });

  it("says no code could be fetched (not that nobody scanned one) when Diia is unavailable, and fetches one on request", async () => {
    let available = false;
    const links = appLinks();
    mockFetch({
      "GET /user": unauthorized,
      "GET /api/diia/app-link": () => (available ? links() : apiError("diia.unavailable")),
      "GET /api/diia/check-request": () => json({ status: "Processing" }),
    });
    renderApp("/uk/diia");
    const stopped = await screen.findByTestId("diia-stopped");
    expect(stopped).toHaveTextContent("Не вдалося отримати QR-код");
    expect(stopped).not.toHaveTextContent("Код давно не сканували");
    available = true;
    fireEvent.click(screen.getByRole("button", { name: "Отримати новий код" }));
    expect(await screen.findByRole("img", { name: "QR-код для входу через Дію" })).toBeInTheDocument();
  });

  it("shows an error toast when Diia reports the sign-in failed", async () => {
    mockFetch({
      "GET /user": unauthorized,
      "GET /api/diia/app-link": appLinks(),
      "GET /api/diia/check-request": () => json({ status: "Failed" }),
    });
    renderApp("/uk/diia");
    expect(await screen.findByText("Не вдалося увійти через Дію. Спробуйте ще раз.")).toBeInTheDocument();
  });

  it("keeps an alert that says why when the university does not know the person, with a link to help", async () => {
    mockFetch({
      "GET /user": unauthorized,
      "GET /api/diia/app-link": appLinks(),
      "GET /api/diia/check-request": () => json({ status: "Failed", failure: "unknown_person" }),
    });
    renderApp("/uk/diia");
    const alert = await screen.findByTestId("diia-refusal");
    expect(alert).toHaveTextContent("В університеті немає особи з податковим номером із вашої Дії");
    expect(alert).toHaveTextContent(/деканат або відділ кадрів/);
    expect(screen.getByRole("link", { name: "Довідка та контакти" })).toHaveAttribute("href", "/uk/faq");
    // Not the passing "try again" toast: a new code would not help.
    expect(screen.queryByText("Не вдалося увійти через Дію. Спробуйте ще раз.")).not.toBeInTheDocument();
  });

  it("says a certificate could not be trusted, in English on the English page", async () => {
    mockFetch({
      "GET /user": unauthorized,
      "GET /api/diia/app-link": appLinks(),
      "GET /api/diia/check-request": () => json({ status: "Failed", failure: "certificate" }),
    });
    renderApp("/en/diia");
    expect(await screen.findByTestId("diia-refusal")).toHaveTextContent("Diia's signature could not be trusted");
  });

  it("says a signature without its signer's certificate could not be checked, with a link to help", async () => {
    mockFetch({
      "GET /user": unauthorized,
      "GET /api/diia/app-link": appLinks(),
      "GET /api/diia/check-request": () => json({ status: "Failed", failure: "signer_certificate_absent" }),
    });
    renderApp("/uk/diia");
    const alert = await screen.findByTestId("diia-refusal");
    expect(alert).toHaveTextContent("Підпис Дії не вдалося перевірити");
    expect(alert).toHaveTextContent(/без сертифіката, яким його зроблено/);
    expect(screen.getByRole("link", { name: "Довідка та контакти" })).toHaveAttribute("href", "/uk/faq");
  });

  it("replaces the code when it is due, stops after a few unscanned codes and offers a new one", async () => {
    // A fake clock: nothing depends on the machine's speed (short intervals keep the progress ticks few).
    vi.useFakeTimers();
    const timing = { refreshIntervalMs: 400, pollIntervalMs: 100 };
    const spy = mockFetch({
      "GET /api/diia/app-link": appLinks(),
      "GET /api/diia/check-request": () => json({ status: "Processing" }),
    });
    const linkCalls = () => spy.mock.calls.filter(([url]) => url === "/api/diia/app-link").length;
    renderWithProviders(<DiiaLogin onSignedIn={() => undefined} timing={timing} />);
    for (let code = 0; code < MAX_UNSCANNED_CODES; code += 1) {
      await vi.advanceTimersByTimeAsync(timing.refreshIntervalMs + PROGRESS_TICK_MS);
    }
    const stopped = screen.getByTestId("diia-stopped");
    expect(linkCalls()).toBe(MAX_UNSCANNED_CODES);
    const polledRequests = new Set(
      spy.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith("/api/diia/check-request")),
    );
    expect(polledRequests).toEqual(
      new Set([
        "/api/diia/check-request?requestId=req-1",
        "/api/diia/check-request?requestId=req-2",
        "/api/diia/check-request?requestId=req-3",
      ]),
    );
    // Polling has stopped: ten polling intervals pass without a call.
    const callsBefore = spy.mock.calls.length;
    await vi.advanceTimersByTimeAsync(10 * timing.pollIntervalMs);
    expect(spy.mock.calls.length).toBe(callsBefore);

    fireEvent.click(screen.getByRole("button", { name: "Отримати новий код" }));
    await vi.advanceTimersByTimeAsync(PROGRESS_TICK_MS);
    expect(screen.getByRole("img", { name: "QR-код для входу через Дію" })).toBeInTheDocument();
    expect(stopped).not.toBeInTheDocument();
    expect(linkCalls()).toBe(MAX_UNSCANNED_CODES + 1);
  });

  it("gets a new code at once when Diia reports the old one expired", async () => {
    const spy = mockFetch({
      "GET /api/diia/app-link": appLinks(),
      "GET /api/diia/check-request": (url) =>
        json({ status: url.searchParams.get("requestId") === "req-1" ? "Expired" : "Processing" }),
    });
    renderWithProviders(<DiiaLogin onSignedIn={() => undefined} />);
    await waitFor(() => expect(spy.mock.calls.some(([url]) => String(url).endsWith("requestId=req-2"))).toBe(true));
  });
});
