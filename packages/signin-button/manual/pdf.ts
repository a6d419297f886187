import { createRequire } from "node:module";
import PDFDocument from "pdfkit";
import { type Block, parseMarkdown, spans } from "./markdown.ts";

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
// No ligatures: a "fi" glyph would not copy or search as the two letters in every viewer.
// fontkit takes an object to switch default features off; the typings only know the array form.
const typography = { features: { liga: false, clig: false } } as unknown as PDFKit.Mixins.TextOptions;
const headingSizes = { 1: 20, 2: 14, 3: 11.5 } as const;

function inlineText(doc: Doc, text: string, options: PDFKit.Mixins.TextOptions = {}): void {
  const parts = spans(text);
  parts.forEach((span, index) => {
    doc.font(span.code ? "mono" : "body").fontSize(span.code ? 9.5 : 10.5);
    doc.text(span.text, { ...typography, ...options, continued: index < parts.length - 1 });
  });
}

/** Starts a new page unless `height` points still fit above the bottom margin. */
function ensureSpace(doc: Doc, height: number): void {
  if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
}

function codeBlock(doc: Doc, text: string): void {
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  doc.font("mono").fontSize(8.5);
  const height = doc.heightOfString(text, { width: width - 16 }) + 12;
  ensureSpace(doc, height);
  const top = doc.y;
  doc.rect(doc.page.margins.left, top, width, height).fill("#f1f4fa");
  doc.fillColor("#111827").text(text, doc.page.margins.left + 8, top + 6, { ...typography, width: width - 16 });
  doc.x = doc.page.margins.left;
  doc.y = top + height + 8;
}

function renderBlock(doc: Doc, block: Block, outline: { top: OutlineItem; section?: OutlineItem }): void {
  const left = doc.page.margins.left;
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
      else if (block.level === 2) outline.section = outline.top.addItem(block.text);
      else (outline.section ?? outline.top).addItem(block.text);
      return;
    }
    case "paragraph":
      inlineText(doc, block.text, { align: "left" });
      doc.moveDown(0.5);
      return;
    case "bullet": {
      const width = doc.page.width - doc.page.margins.right - left - 16;
      ensureSpace(doc, doc.font("body").fontSize(10.5).heightOfString(block.text.replaceAll("`", ""), { width }) + 4);
      const y = doc.y;
      doc
        .font("body")
        .fontSize(10.5)
        .text("•", left + 4, y);
      doc.x = left + 16;
      doc.y = y;
      inlineText(doc, block.text, { width });
      doc.x = left;
      doc.moveDown(0.25);
      return;
    }
    case "code":
      codeBlock(doc, block.text);
      return;
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
  for (const part of parts) {
    doc.addPage();
    const outline = { top: doc.outline };
    for (const block of parseMarkdown(part.markdown)) renderBlock(doc, block, outline);
  }
  doc.end();
  return done;
}
