// Node decodes a module's file to text that V8 keeps for as long as the module lives (it compiles functions
// lazily from it): one byte per character when every character is ASCII, two otherwise, even for one "ä". The
// bundle's main module is 2.6 MB: 2.5 MiB of heap either way (docs/performance.md, twentieth pass). rolldown's
// `charset: "ascii"` escapes strings, regular expressions and names; what it leaves past ASCII are the licence
// comments it keeps (and would leave tagged templates' text, whose raw form a program can read).

const pastAscii = /\P{ASCII}/gu;
// The comments rolldown keeps by default: /*! … */, //! …, and block comments naming @license or @preserve.
const legalComment = /\/\*![\s\S]*?\*\/|\/\/![^\n]*|\/\*(?:(?!\*\/)[\s\S])*?@(?:license|preserve)[\s\S]*?\*\//g;

export function isAscii(code: string): boolean {
  return !/\P{ASCII}/u.test(code);
}

/**
 * The chunk with the characters past ASCII in its licence comments written as `\u{…}` (a comment's text, for
 * people: nothing reads it as code); undefined when any such character is outside them, which is left as it is.
 */
export function escapeLegalComments(code: string): string | undefined {
  const comments = Array.from(code.matchAll(legalComment), (match) => [match.index, match.index + match[0].length]);
  for (const { index } of code.matchAll(pastAscii))
    if (!comments.some(([start = 0, end = 0]) => index >= start && index < end)) return undefined;
  return code.replace(legalComment, (comment) =>
    comment.replace(pastAscii, (character) => `\\u{${character.codePointAt(0)?.toString(16)}}`),
  );
}
