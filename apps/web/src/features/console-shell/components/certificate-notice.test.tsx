import type { ServiceCertificates } from "@kpi-id/contracts";
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { initTestI18n } from "../../../../test/i18n.ts";
import { renderWithProviders } from "../../../../test/render.tsx";
import { CertificateNotice } from "./certificate-notice.tsx";

const far = {
  source: "SAML signing key k1",
  subject: "CN=KPI ID SAML",
  notAfter: "2036-03-01T09:00:00.000Z",
  daysLeft: 3500,
  state: "valid",
} as const;
const ending = {
  source: "federation peano metadata signer",
  subject: "CN=peano",
  notAfter: "2026-12-07T12:00:00.000Z",
  daysLeft: 12,
  state: "expiring",
} as const;
const ended = {
  source: "DIIA_TRUST_ANCHORS certificate 1",
  subject: "Diia CA",
  notAfter: "2026-11-20T12:00:00.000Z",
  daysLeft: -5,
  state: "expired",
} as const;

async function show(certificates: ServiceCertificates["certificates"], language: "uk" | "en") {
  await initTestI18n(language);
  renderWithProviders(
    <CertificateNotice certificates={{ warningDays: 30, certificates, unreadable: [] }} />,
    `/${language}/admin/service`,
  );
}

/** Issue 40: the console warns of certificates within 30 days of their end, or past it, and says what to do. */
describe("the console's certificate notice", () => {
  it("names a certificate that ends soon, its date and the days left, in English", async () => {
    await show([ending, far], "en");
    const notice = await screen.findByTestId("certificate-notice");
    expect(notice).toHaveAttribute("role", "status");
    expect(notice).toHaveTextContent("Certificates end within 30 days");
    expect(notice).toHaveTextContent("federation peano metadata signer: ends on 7 December 2026 (12 days left)");
    expect(notice).toHaveTextContent("docs/operations.md");
    expect(notice).not.toHaveTextContent("SAML signing key k1");
  });

  it("names it in Ukrainian with the day's form", async () => {
    await show([ending, far], "uk");
    const notice = await screen.findByTestId("certificate-notice");
    expect(notice).toHaveTextContent("Сертифікати спливають протягом 30 днів");
    expect(notice).toHaveTextContent("federation peano metadata signer: діє до 7 грудня 2026 р. (лишилось 12 днів)");
    expect(notice).toHaveTextContent("docs/operations.md");
  });

  it("is destructive once a certificate has ended, in both languages", async () => {
    await show([ended, ending], "en");
    const notice = await screen.findByTestId("certificate-notice");
    expect(notice).toHaveAttribute("role", "alert");
    expect(notice).toHaveTextContent("A certificate has ended");
    expect(notice).toHaveTextContent("DIIA_TRUST_ANCHORS certificate 1: ended on 20 November 2026");
    expect(screen.getAllByTestId("certificate-due")).toHaveLength(2);
  });

  it("says it has ended in Ukrainian", async () => {
    await show([ended], "uk");
    const notice = await screen.findByTestId("certificate-notice");
    expect(notice).toHaveAttribute("role", "alert");
    expect(notice).toHaveTextContent("Строк дії сертифіката скінчився");
    expect(notice).toHaveTextContent("DIIA_TRUST_ANCHORS certificate 1: скінчився 20 листопада 2026 р.");
  });

  it("does not appear when every certificate is far from its end", async () => {
    await show([far], "en");
    expect(screen.queryByTestId("certificate-notice")).toBeNull();
  });
});
