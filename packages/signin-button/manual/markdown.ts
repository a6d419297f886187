/**
 * The small Markdown subset the integration manual is written in: headings
 * (#, ##, ###), paragraphs, "- " lists, fenced code, and `code` spans.
 */
export type Block =
  | { kind: "heading"; level: 1 | 2 | 3; text: string }
  | { kind: "paragraph"; text: string }
  | { kind: "bullet"; text: string }
  | { kind: "code"; text: string };

export interface Span {
  text: string;
  code: boolean;
}

function headingOf(line: string): Block | undefined {
  const match = /^(#{1,3}) (.+)$/.exec(line);
  if (!match?.[1] || !match[2]) return undefined;
  return { kind: "heading", level: match[1].length as 1 | 2 | 3, text: match[2].trim() };
}

export function parseMarkdown(source: string): Block[] {
  const blocks: Block[] = [];
  const lines = source.replace(/\r\n/g, "\n").split("\n");
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) blocks.push({ kind: "paragraph", text: paragraph.join(" ") });
    paragraph = [];
  };
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? "";
    if (line.startsWith("```")) {
      flush();
      const code: string[] = [];
      for (index++; index < lines.length && !(lines[index] ?? "").startsWith("```"); index++)
        code.push(lines[index] ?? "");
      blocks.push({ kind: "code", text: code.join("\n") });
      continue;
    }
    const heading = headingOf(line);
    if (heading) {
      flush();
      blocks.push(heading);
    } else if (line.startsWith("- ")) {
      flush();
      blocks.push({ kind: "bullet", text: line.slice(2).trim() });
    } else if (line.trim() === "") {
      flush();
    } else {
      paragraph.push(line.trim());
    }
  }
  flush();
  return blocks;
}

/** Splits text at backticks into plain and code spans. */
export function spans(text: string): Span[] {
  return text
    .split("`")
    .map((part, index) => ({ text: part, code: index % 2 === 1 }))
    .filter((span) => span.text !== "");
}
