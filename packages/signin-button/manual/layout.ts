import type PDFDocument from "pdfkit";
import { spans } from "./markdown.ts";

type Doc = InstanceType<typeof PDFDocument>;

// No ligatures: a "fi" glyph would not copy or search as the two letters in every viewer.
// fontkit takes an object to switch default features off; the typings only know the array form.
export const typography = { features: { liga: false, clig: false } } as unknown as PDFKit.Mixins.TextOptions;

/** Marks a code line the box had to wrap: the rest continues on the next line. */
export const continuationMark = "↪ ";
const codeSize = 8.5;
const codeLineGap = 1.5;

interface Atom {
  text: string;
  code: boolean;
  /** Whether a space precedes it. */
  spaced: boolean;
}

/** Words of plain text, and each `code` span whole: a line may break between atoms, never inside code. */
function atomsOf(text: string): Atom[] {
  const atoms: Atom[] = [];
  let spaced = false;
  for (const span of spans(text)) {
    if (span.code) {
      atoms.push({ text: span.text, code: true, spaced });
      spaced = false;
      continue;
    }
    const words = span.text.split(" ");
    words.forEach((word, index) => {
      if (index > 0) spaced = true;
      if (word === "") return;
      atoms.push({ text: word, code: false, spaced });
      spaced = false;
    });
  }
  return atoms;
}

function fontOf(doc: Doc, code: boolean): Doc {
  return doc.font(code ? "mono" : "body").fontSize(code ? 9.5 : 10.5);
}

/**
 * Lays out a paragraph of text with `code` spans from (left, doc.y) within width: lines break at
 * spaces only, and a code span moves whole to the next line rather than split (`--callback-url`,
 * `https://id.kpi.ua` stay as written). Only a span longer than the whole line is cut.
 */
export function flowText(doc: Doc, text: string, left: number, width: number): void {
  const lineHeight = fontOf(doc, false).currentLineHeight(true);
  let x = left;
  let y = doc.y;
  const newLine = () => {
    x = left;
    y += lineHeight;
    if (y + lineHeight > doc.page.height - doc.page.margins.bottom) {
      doc.addPage();
      y = doc.y;
    }
  };
  for (const atom of atomsOf(text)) {
    const space = atom.spaced && x > left ? fontOf(doc, false).widthOfString(" ") : 0;
    const atomWidth = fontOf(doc, atom.code).widthOfString(atom.text);
    if (x + space + atomWidth > left + width && x > left) newLine();
    else x += space;
    fontOf(doc, atom.code).text(atom.text, x, y + (atom.code ? 0.8 : 0), { ...typography, lineBreak: false });
    x += atomWidth;
  }
  doc.x = left;
  doc.y = y + lineHeight;
}

/** Cuts a code line into pieces that fit `columns`, each after the first marked as a continuation. */
export function wrapCodeLine(line: string, columns: number): string[] {
  if (line.length <= columns) return [line];
  const pieces = [line.slice(0, columns)];
  const rest = columns - continuationMark.length;
  for (let at = columns; at < line.length; at += rest) pieces.push(continuationMark + line.slice(at, at + rest));
  return pieces;
}

/**
 * A code box: every line as written, in a monospace font, never broken by the text engine; a line
 * wider than the box wraps with a visible continuation mark; a block longer than the page goes on.
 */
export function codeBlock(doc: Doc, text: string): void {
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  doc.font("mono").fontSize(codeSize);
  const columns = Math.floor((width - 16) / doc.widthOfString("M"));
  const lineHeight = doc.currentLineHeight(true) + codeLineGap;
  let lines = text.split("\n").flatMap((line) => wrapCodeLine(line, columns));
  // Keep at least a few lines together with what came before.
  if (doc.y + lineHeight * Math.min(lines.length, 4) + 12 > doc.page.height - doc.page.margins.bottom) doc.addPage();
  while (lines.length > 0) {
    const room = Math.floor((doc.page.height - doc.page.margins.bottom - doc.y - 12) / lineHeight);
    const here = lines.slice(0, Math.max(1, room));
    lines = lines.slice(here.length);
    const top = doc.y;
    const height = here.length * lineHeight + 12;
    doc.rect(left, top, width, height).fill("#f1f4fa");
    doc.fillColor("#111827").font("mono").fontSize(codeSize);
    here.forEach((line, index) => {
      doc.text(line || " ", left + 8, top + 6 + index * lineHeight, { ...typography, lineBreak: false });
    });
    doc.x = left;
    doc.y = top + height + 8;
    if (lines.length > 0) doc.addPage();
  }
}
