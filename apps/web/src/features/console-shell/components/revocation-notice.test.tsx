import type { WatchedRevocationList } from "@kpi-id/contracts";
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { initTestI18n } from "../../../../test/i18n.ts";
import { renderWithProviders } from "../../../../test/render.tsx";
import { RevocationNotice } from "./revocation-notice.tsx";

const current: WatchedRevocationList = { source: "http://ca.example.ua/CA.crl", nextUpdate: null, state: "current" };
const stale: WatchedRevocationList = {
  source: "http://ca.example.ua/CA-delta.crl",
  nextUpdate: "2026-11-26T12:00:00.000Z",
  state: "stale",
};
const refusing: WatchedRevocationList = {
  source: "http://ca2.example.ua/CA.crl",
  nextUpdate: "2026-11-20T12:00:00.000Z",
  state: "refusing",
};

async function show(lists: WatchedRevocationList[] | undefined, language: "uk" | "en") {
  await initTestI18n(language);
  renderWithProviders(<RevocationNotice lists={lists} />, `/${language}/admin/service`);
}

/**
 * Issue 57: the console says when a Diia CRL (or the OCSP answers, one entry) is stale, and when sign-ins are
 * refused for want of current revocation information.
 */
describe("the console's stale CRL notice", () => {
  it("names a stale list and since when, in English, and not the current one", async () => {
    await show([current, stale], "en");
    const notice = await screen.findByTestId("revocation-notice");
    expect(notice).toHaveAttribute("role", "status");
    expect(notice).toHaveTextContent("Diia's revocation information (CRLs, OCSP answers) is stale");
    expect(notice).toHaveTextContent("http://ca.example.ua/CA-delta.crl: past its next update since 26 November 2026");
    expect(notice).toHaveTextContent("DIIA_CRLS");
    expect(notice).toHaveTextContent("DIIA_OCSP");
    expect(notice).not.toHaveTextContent("http://ca.example.ua/CA.crl:");
  });

  it("is destructive in Ukrainian once sign-ins are refused", async () => {
    await show([stale, refusing, { ...refusing, source: "/etc/kpi-id/never.crl", nextUpdate: null }], "uk");
    const notice = await screen.findByTestId("revocation-notice");
    expect(notice).toHaveAttribute("role", "alert");
    expect(notice).toHaveTextContent("Вхід через Дію відхиляється");
    expect(notice).toHaveTextContent("/etc/kpi-id/never.crl: жодного разу не завантажено");
  });

  it("shows nothing while every list is current or revocation is not checked", async () => {
    await show([current], "en");
    expect(screen.queryByTestId("revocation-notice")).toBeNull();
    await show(undefined, "en");
    expect(screen.queryByTestId("revocation-notice")).toBeNull();
  });
});
