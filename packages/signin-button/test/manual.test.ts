// @vitest-environment node
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { continuationMark } from "../manual/layout.ts";
import { buildManualPdf } from "../manual/pdf.ts";
import { type PdfContents, readPdf } from "./support/pdf-text.ts";

const source = (lang: string) =>
  readFileSync(new URL(`../../../docs/integration-manual/${lang}.md`, import.meta.url), "utf8");

const sections = {
  uk: [
    "1. Реєстрація застосунку",
    "2. Кнопка на вашій сторінці (HTML)",
    "3. Кнопка в React",
    "4. Як відбувається вхід",
    "5. Обмін квитка",
    "6. Поля даних",
    "7. Вихід і тривалість сесії",
    "8. OpenID Connect",
    "9. Наявні інтеграції: вхід через Дію на боці сервера",
    "10. Розв'язання проблем",
    "11. Поради з безпеки",
    "12. Режим розробника і пісочниця",
  ],
  en: [
    "1. Registering an application",
    "2. The button on your page (HTML)",
    "3. The button in React",
    "4. How sign-in works",
    "5. The ticket exchange",
    "6. The data fields",
    "7. Sign-out and session lifetime",
    "8. OpenID Connect",
    "9. Existing integrations: the server-side Diia flow",
    "10. Troubleshooting",
    "11. Security advice",
    "12. Dev mode and the sandbox",
  ],
};

/** Every `code` span of the prose (not of fenced blocks). */
function inlineCode(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, "");
  return [...prose.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? "");
}

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
      expect(part).toContain("with urllib.request.urlopen(request, timeout=10) as answer:");
      expect(part).toContain('"USER_ID": "1f0e6a52-7c1b-4e8e-9a4d-3b2c1d0e9f8a",');
      expect(part).toContain("CURLOPT_USERPWD => getenv('KPI_ID_APP_ID') . ':' . getenv('KPI_ID_APP_SECRET'),");
    }
  });

  it("opens each language with a table of contents giving every chapter's page, and numbers every page", () => {
    const englishStart = pdf.pages.findIndex((page) => page.startsWith("KPI ID integration manual"));
    for (const [lang, start, label] of [
      ["uk", 0, "Зміст"],
      ["en", englishStart, "Contents"],
    ] as const) {
      const contents = (pdf.pages[start] ?? "").split("\n");
      expect(contents).toContain(label);
      for (const title of sections[lang]) {
        // The contents are written last on their page (once the chapters' pages are known).
        const page = Number(contents[contents.lastIndexOf(title) + 1]);
        expect(page, title).toBeGreaterThan(start);
        expect(pdf.pages[page - 1]?.split("\n"), `${title} on page ${page}`).toContain(title);
      }
    }
    pdf.pages.forEach((page, index) => {
      expect(page.split("\n").at(-1)).toBe(String(index + 1));
    });
  });

  it("never breaks code across lines: every code span of the prose stands whole on one line", () => {
    const lines = new Set(pdf.pages.flatMap((page) => page.split("\n")));
    for (const lang of ["uk", "en"]) {
      const spans = inlineCode(source(lang));
      expect(spans).toEqual(
        expect.arrayContaining(["--release-tax-id", "https://id.kpi.ua", "$DATA_DIR/demo-apps.json"]),
      );
      for (const span of spans) expect(lines.has(span), `${lang}: \`${span}\``).toBe(true);
    }
  });

  it("keeps every line of every code block, a long one wrapped inside the box with a continuation mark", () => {
    const lines = pdf.pages.flatMap((page) => page.split("\n"));
    for (const lang of ["uk", "en"]) {
      for (const block of source(lang).matchAll(/```[a-z]*\n([\s\S]*?)\n```/g)) {
        for (const line of (block[1] ?? "").split("\n").filter((text) => text.trim() !== "")) {
          const whole = lines.includes(line);
          const wrapped =
            lines.some((shown) => line.startsWith(shown) && shown.length >= 40) &&
            lines.some(
              (shown) => shown.startsWith(continuationMark) && line.endsWith(shown.slice(continuationMark.length)),
            );
          expect(whole || wrapped, `${lang}: ${line}`).toBe(true);
        }
      }
    }
  });
});
