import { DOMParser, type Element, type Node } from "@xmldom/xmldom";

/**
 * Elements an icon has no use for and that run code, embed other documents or fetch from elsewhere. An SVG holding
 * any of them is refused rather than cleaned, so what is stored is exactly what the owner sent.
 */
const refusedElements = new Set([
  "script",
  "foreignobject",
  "iframe",
  "embed",
  "object",
  "image",
  "use",
  "feimage",
  "animate",
  "animatemotion",
  "animatetransform",
  "set",
  "a",
  "style",
  "handler",
  "listener",
]);

/** A reference inside the document (`#id`) is fine; anything else (http:, data:, javascript:, a relative file) is not. */
const reference = /^\s*#[\w.-]*\s*$/;
/** `url(` in an attribute fetches only when it names something but an id in the document. */
const externalUrl = /url\(\s*(?!['"]?#)/i;

function attributeProblem(element: Element): string | undefined {
  for (const attribute of Array.from(element.attributes)) {
    const name = attribute.name.toLowerCase();
    if (name.startsWith("on")) return `event attribute ${name}`;
    if ((name === "href" || name.endsWith(":href")) && !reference.test(attribute.value)) return "outside reference";
    if (externalUrl.test(attribute.value) || /@import|expression\(/i.test(attribute.value)) return "outside reference";
  }
  return undefined;
}

function nodeProblem(node: Node): string | undefined {
  // Processing instructions (xml-stylesheet) and doctype declarations (entities) are refused outright.
  if (node.nodeType === 7 || node.nodeType === 10) return "declaration";
  if (node.nodeType !== 1) return undefined;
  const element = node as Element;
  const name = (element.localName ?? element.nodeName).toLowerCase();
  if (refusedElements.has(name)) return `element ${name}`;
  const attribute = attributeProblem(element);
  if (attribute) return attribute;
  for (const child of Array.from(element.childNodes)) {
    const problem = nodeProblem(child);
    if (problem) return problem;
  }
  return undefined;
}

/** Why this SVG may not be an icon, or undefined when it is a plain drawing. */
export function svgProblem(source: string): string | undefined {
  if (/<!DOCTYPE|<!ENTITY/i.test(source)) return "declaration";
  let problem: string | undefined;
  const document = new DOMParser({
    onError: (level, message) => {
      if (level !== "warning") problem ??= `not XML: ${message}`;
    },
  }).parseFromString(source, "image/svg+xml");
  if (problem) return problem;
  const root = document.documentElement;
  if (root?.localName !== "svg") return "not an SVG";
  for (const child of Array.from(document.childNodes)) {
    const found = nodeProblem(child);
    if (found) return found;
  }
  return undefined;
}
