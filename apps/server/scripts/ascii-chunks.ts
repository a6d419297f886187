// Node decodes a module's file to text that V8 keeps for as long as the module lives (it compiles functions
// lazily from it): one byte per character when every character is ASCII, two otherwise, even for one "ä". The
// bundle's main module is 2.6 MB: 2.5 MiB more of heap at two bytes a character (docs/performance.md, twentieth
// pass). rolldown's `charset: "ascii"` escapes strings, regular expressions and names; what it leaves past ASCII
// are the licence comments it keeps (and would leave tagged templates' text, whose raw form a program can read).
import type { Plugin } from "rolldown";
import { parseSync } from "rolldown/experimental";

const pastAscii = /\P{ASCII}/gu;

export function isAscii(code: string): boolean {
  return !/\P{ASCII}/u.test(code);
}

/**
 * The chunk with the characters past ASCII in its comments written as `\u{…}` (a comment's text, for people:
 * nothing reads it as code); undefined when any such character is outside a comment, which is left as it is. The
 * comments are the parser's, so a comment-like text inside a string or a template is not one.
 */
export function escapeComments(fileName: string, code: string): string | undefined {
  const { comments, errors } = parseSync(fileName, code);
  if (errors.length > 0) return undefined;
  const inComment = (index: number) => comments.some(({ start, end }) => index >= start && index < end);
  for (const { index } of code.matchAll(pastAscii)) if (!inComment(index)) return undefined;
  let escaped = "";
  let from = 0;
  for (const { start, end } of comments) {
    escaped += code.slice(from, start);
    escaped += code
      .slice(start, end)
      .replace(pastAscii, (character) => `\\u{${character.codePointAt(0)?.toString(16)}}`);
    from = end;
  }
  return escaped + code.slice(from);
}

/** The output plugin: each chunk's comments made ASCII before it is written (one write per chunk). */
export const asciiComments: Plugin = {
  name: "ascii-comments",
  generateBundle(_options, bundle) {
    for (const file of Object.values(bundle)) {
      if (file.type !== "chunk" || isAscii(file.code)) continue;
      const escaped = escapeComments(file.fileName, file.code);
      if (escaped === undefined)
        this.warn(`${file.fileName}: characters past ASCII outside its comments; Node holds it at two bytes each`);
      else file.code = escaped;
    }
  },
};
