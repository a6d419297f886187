import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { apiError, mockFetch } from "../../../../test/fetch-mock.ts";
import { initTestI18n } from "../../../../test/i18n.ts";
import { renderWithProviders } from "../../../../test/render.tsx";
import { DataDownloadSection } from "./data-download-section.tsx";

const file = 'attachment; filename="kpi-id-o.kovalenko-2026-03-01.json"';

/** What the browser was handed to save: the link's file name and the data's text. */
function watchDownloads() {
  const saved: { name: string; url: string }[] = [];
  const blobs: Blob[] = [];
  vi.stubGlobal(
    "URL",
    Object.assign(URL, {
      createObjectURL: (blob: Blob) => {
        blobs.push(blob);
        return "blob:kpi-id/1";
      },
      revokeObjectURL: () => {},
    }),
  );
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, url: this.href });
  });
  return { saved, blobs };
}

describe("the account page's data download", () => {
  afterEach(() => vi.restoreAllMocks());

  it("saves the server's file under the name it gives", async () => {
    mockFetch({
      "GET /api/account/personal-data": () =>
        new Response(JSON.stringify({ profile: { username: "o.kovalenko" } }), {
          headers: { "content-type": "application/json", "content-disposition": file },
        }),
    });
    const { saved, blobs } = watchDownloads();
    renderWithProviders(<DataDownloadSection askAgain={vi.fn()} />);
    expect(screen.getByRole("heading", { name: "Ваші дані" })).toBeTruthy();
    await userEvent.setup().click(screen.getByRole("button", { name: "Завантажити мої дані" }));
    await waitFor(() => expect(saved).toEqual([{ name: "kpi-id-o.kovalenko-2026-03-01.json", url: "blob:kpi-id/1" }]));
    expect(JSON.parse(await (blobs[0] as Blob).text())).toEqual({ profile: { username: "o.kovalenko" } });
  });

  it("speaks English on English pages", async () => {
    await initTestI18n("en");
    try {
      mockFetch({});
      renderWithProviders(<DataDownloadSection askAgain={vi.fn()} />, "/en/");
      expect(screen.getByRole("heading", { name: "Your data" })).toBeTruthy();
      expect(screen.getByRole("button", { name: "Download my data" })).toBeTruthy();
    } finally {
      await initTestI18n("uk");
    }
  });

  it("after a stale sign-in asks the person to prove it is them, then tries again", async () => {
    let calls = 0;
    mockFetch({
      "GET /api/account/personal-data": () =>
        ++calls === 1
          ? apiError("auth.reauth_required")
          : new Response("{}", { headers: { "content-type": "application/json", "content-disposition": file } }),
    });
    const { saved } = watchDownloads();
    const askAgain = vi.fn((retry: () => void) => retry());
    renderWithProviders(<DataDownloadSection askAgain={askAgain} />);
    await userEvent.setup().click(screen.getByRole("button", { name: "Завантажити мої дані" }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(askAgain).toHaveBeenCalledTimes(1);
  });
});
