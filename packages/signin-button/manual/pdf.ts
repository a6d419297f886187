import { createRequire } from "node:module";
import PDFDocument from "pdfkit";
import { codeBlock, flowText, typography } from "./layout.ts";
import { type Block, parseMarkdown } from "./markdown.ts";

// DejaVu ships in an npm package, so the build needs no system fonts, and covers Cyrillic.
const require = createRequire(import.meta.url);
const fonts = {
  body: require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf"),
  bold: require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf"),
  mono: require.resolve("dejavu-fonts-ttf/ttf/DejaVuSansMono.ttf"),
};

export interface ManualPart {
  /** BCP 47 language of the part. */
  lang: string;
  markdown: string;
}

type Doc = InstanceType<typeof PDFDocument>;
type OutlineItem = Doc["outline"];

const brand = "#1b4fa0";
const headingSizes = { 1: 20, 2: 14, 3: 11.5 } as const;
const contentsTitle: Record<string, string> = { uk: "Зміст", en: "Contents" };
const tocLineHeight = 17;

/** The chapters of one part and the page each starts on, for its table of contents. */
interface Part {
  outline: { top: OutlineItem; section?: OutlineItem };
  chapters: { title: string; page: number }[];
}

/** Starts a new page unless `height` points still fit above the bottom margin. */
function ensureSpace(doc: Doc, height: number): void {
  if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
}

function currentPage(doc: Doc): number {
  const range = doc.bufferedPageRange();
  return range.start + range.count - 1;
}

function renderBlock(doc: Doc, block: Block, part: Part): void {
  const left = doc.page.margins.left;
  const width = doc.page.width - doc.page.margins.right - left;
  const { outline } = part;
  switch (block.kind) {
    case "heading": {
      // Keep a heading with the start of what follows it.
      if (block.level > 1) ensureSpace(doc, block.level === 2 ? 150 : 110);
      doc.moveDown(block.level === 3 ? 0.4 : 0.8);
      doc
        .font("bold")
        .fontSize(headingSizes[block.level])
        .fillColor(block.level === 3 ? "#111827" : brand);
      doc.text(block.text, left, undefined, typography);
      doc.fillColor("#111827").moveDown(0.3);
      if (block.level === 1) outline.top = outline.top.addItem(block.text, { expanded: true });
      else if (block.level === 2) {
        outline.section = outline.top.addItem(block.text);
        part.chapters.push({ title: block.text, page: currentPage(doc) });
      } else (outline.section ?? outline.top).addItem(block.text);
      return;
    }
    case "paragraph":
      flowText(doc, block.text, left, width);
      doc.moveDown(0.5);
      return;
    case "bullet": {
      ensureSpace(doc, 30);
      const y = doc.y;
      doc
        .font("body")
        .fontSize(10.5)
        .text("•", left + 4, y, { lineBreak: false });
      doc.y = y;
      flowText(doc, block.text, left + 16, width - 16);
      doc.moveDown(0.25);
      return;
    }
    case "code":
      codeBlock(doc, block.text);
      return;
  }
}

/** Room for the contents below the title; filled in once the chapters' pages are known. */
function reserveContents(doc: Doc, chapters: number): { page: number; top: number } {
  const reserved = { page: currentPage(doc), top: doc.y };
  doc.y += 30 + chapters * tocLineHeight;
  return reserved;
}

function writeContents(doc: Doc, lang: string, at: { page: number; top: number }, part: Part): void {
  doc.switchToPage(at.page);
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  doc
    .font("bold")
    .fontSize(12)
    .fillColor(brand)
    .text(contentsTitle[lang] ?? "Contents", left, at.top + 4, { lineBreak: false });
  doc.fillColor("#111827").font("body").fontSize(10.5);
  part.chapters.forEach((chapter, index) => {
    const y = at.top + 26 + index * tocLineHeight;
    doc.text(chapter.title, left + 8, y, { ...typography, lineBreak: false, width: width - 60 });
    doc.text(String(chapter.page + 1), left, y, { lineBreak: false, width, align: "right" });
  });
}

/** Page numbers at the foot of every page, written below the margin without starting a page. */
function numberPages(doc: Doc): void {
  const range = doc.bufferedPageRange();
  for (let index = range.start; index < range.start + range.count; index++) {
    doc.switchToPage(index);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font("body")
      .fontSize(9)
      .fillColor("#4b5563")
      .text(String(index + 1), 0, doc.page.height - 36, { width: doc.page.width, align: "center", lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
}

/** Renders the manual's parts (each from a new page, with its own outline) into one PDF. */
export function buildManualPdf(parts: ManualPart[], title: string): Promise<Buffer> {
  const doc = new PDFDocument({
    size: "A4",
    margins: { top: 56, bottom: 56, left: 60, right: 60 },
    info: { Title: title, Author: "KPI ID", Subject: "Integration manual" },
    displayTitle: true,
    lang: parts[0]?.lang ?? "uk",
    autoFirstPage: false,
    // Kept until the end: the contents and the page numbers are written once every page exists.
    bufferPages: true,
  });
  doc.registerFont("body", fonts.body);
  doc.registerFont("bold", fonts.bold);
  doc.registerFont("mono", fonts.mono);
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  for (const { lang, markdown } of parts) {
    doc.addPage();
    const part: Part = { outline: { top: doc.outline }, chapters: [] };
    const blocks = parseMarkdown(markdown);
    const [title, ...rest] = blocks;
    if (title) renderBlock(doc, title, part);
    const contents = reserveContents(doc, blocks.filter((b) => b.kind === "heading" && b.level === 2).length);
    for (const block of rest) renderBlock(doc, block, part);
    writeContents(doc, lang, contents, part);
    doc.switchToPage(currentPage(doc));
  }
  numberPages(doc);
  doc.end();
  return done;
}
