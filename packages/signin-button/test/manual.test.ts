// @vitest-environment node
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { buildManualPdf } from "../manual/pdf.ts";
import { type PdfContents, readPdf } from "./support/pdf-text.ts";

const source = (lang: string) =>
  readFileSync(new URL(`../../../docs/integration-manual/${lang}.md`, import.meta.url), "utf8");

const sections = {
  uk: [
    "1. Реєстрація застосунку",
    "2. Кнопка на вашій сторінці (HTML)",
    "3. Кнопка в React",
    "4. Обмін квитка",
    "5. Поля даних",
    "6. Помилки",
    "7. Поради з безпеки",
    "8. Режим розробника і пісочниця",
  ],
  en: [
    "1. Registering an application",
    "2. The button on your page (HTML)",
    "3. The button in React",
    "4. The ticket exchange",
    "5. The data fields",
    "6. Errors",
    "7. Security advice",
    "8. Dev mode and the sandbox",
  ],
};

describe("the integration manual PDF", () => {
  let pdf: PdfContents;
  let uk: string;
  let en: string;
  beforeAll(async () => {
    const bytes = await buildManualPdf(
      [
        { lang: "uk", markdown: source("uk") },
        { lang: "en", markdown: source("en") },
      ],
      "Посібник з інтеграції KPI ID / KPI ID integration manual",
    );
    pdf = readPdf(bytes);
    const englishStart = pdf.pages.findIndex((page) => page.startsWith("KPI ID integration manual"));
    uk = pdf.pages.slice(0, englishStart).join("\n");
    en = pdf.pages.slice(englishStart).join("\n");
  });

  it("opens as a PDF with several pages, an embedded Cyrillic font and a title", () => {
    expect(pdf.version).toMatch(/^1\.\d$/);
    expect(pdf.pages.length).toBeGreaterThanOrEqual(6);
    expect([...pdf.objects.values()].some((object) => object.dict.includes("/FontFile2"))).toBe(true);
    expect(pdf.info).toBe("Посібник з інтеграції KPI ID / KPI ID integration manual");
  });

  it("has every section, in Ukrainian and in English, in the text and the outline", () => {
    expect(uk.startsWith("Посібник з інтеграції KPI ID")).toBe(true);
    for (const title of sections.uk) {
      expect(uk).toContain(title);
      expect(pdf.outline).toContain(title);
    }
    for (const title of sections.en) {
      expect(en).toContain(title);
      expect(pdf.outline).toContain(title);
    }
  });

  it("shows the exact ticket request and answer and the examples in Node.js, Python and PHP in both languages", () => {
    for (const part of [uk, en]) {
      expect(part).toContain("GET /api/ticket?ticketId=TICKET HTTP/1.1");
      expect(part).toContain("Authorization: Basic base64(APP_ID:APP_SECRET)");
      expect(part).toContain('"AUTH_METHOD": "PASSWORD",');
      expect(part).toContain("npx kpi-id app create --name timetable");
      expect(part).toContain('<script src="https://id.kpi.ua/kpi-id-signin.js" async></script>');
      expect(part).toContain("const answer = await fetch(url, { headers: { Authorization:");
      expect(part).toContain("answer = requests.get(");
      expect(part).toContain("CURLOPT_USERPWD => getenv('KPI_ID_APP_ID') . ':' . getenv('KPI_ID_APP_SECRET'),");
    }
  });
});
