import { DOMParser, type Element, type Node } from "@xmldom/xmldom";

/**
 * An icon is served from KPI ID's own origin, so an SVG is held to an allowlist: only SVG-namespace elements a
 * drawing needs (shapes, structure, gradients, clipping, text) and the attributes that draw them. Anything else
 * (script, foreignObject, image, use, animation, links, XHTML <meta>/<form>, another namespace) is refused rather
 * than cleaned, so what is stored is exactly what the owner sent.
 */
const svgNamespace = "http://www.w3.org/2000/svg";
const xlinkNamespace = "http://www.w3.org/1999/xlink";
const xmlNamespace = "http://www.w3.org/XML/1998/namespace";
const xmlnsNamespace = "http://www.w3.org/2000/xmlns/";

const allowedElements = new Set(
  [
    ...["svg", "g", "defs", "title", "desc", "metadata"],
    ...["path", "rect", "circle", "ellipse", "line", "polyline", "polygon"],
    ...["linearGradient", "radialGradient", "stop", "pattern", "clipPath", "mask"],
    ...["text", "tspan", "textPath"],
  ].map((name) => name.toLowerCase()),
);

/** Properties that draw, usable both as attributes and inside `style`. */
const presentationProperties = [
  ...["fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-linecap", "stroke-linejoin"],
  ...["stroke-miterlimit", "stroke-dasharray", "stroke-dashoffset", "stroke-opacity", "opacity", "color"],
  ...["clip-path", "clip-rule", "mask", "stop-color", "stop-opacity", "display", "visibility", "paint-order"],
  ...["vector-effect", "shape-rendering", "text-rendering", "color-interpolation", "mix-blend-mode", "isolation"],
  ...["font-family", "font-size", "font-weight", "font-style", "font-variant", "font-stretch", "text-anchor"],
  ...["dominant-baseline", "alignment-baseline", "baseline-shift", "letter-spacing", "word-spacing"],
  ...["text-decoration", "writing-mode", "direction", "unicode-bidi", "transform", "transform-origin"],
];
const allowedStyleProperties = new Set(presentationProperties);
const allowedAttributes = new Set(
  [
    ...presentationProperties,
    ...["id", "class", "style", "version", "baseProfile", "x", "y", "width", "height", "viewBox"],
    ...["preserveAspectRatio", "d", "pathLength", "cx", "cy", "r", "rx", "ry", "x1", "y1", "x2", "y2", "points"],
    ...["gradientUnits", "gradientTransform", "spreadMethod", "fx", "fy", "fr", "offset", "href"],
    ...["clipPathUnits", "maskUnits", "maskContentUnits", "patternUnits", "patternContentUnits"],
    ...["patternTransform", "dx", "dy", "rotate", "textLength", "lengthAdjust", "startOffset", "method"],
    ...["spacing", "side"],
  ].map((name) => name.toLowerCase()),
);

/** Levels below the root deeper than any drawing nests; the walk is iterative, this only bounds the work. */
const maxDepth = 64;

/** A reference inside the document (`#id`) is fine; anything else (http:, data:, javascript:, a relative file) is not. */
const reference = /^\s*#[\w.-]*\s*$/;
/** `url(` in a value fetches only when it names something but an id in the document. */
const externalUrl = /url\(\s*(?!['"]?#)/i;

/** Why a value may not stand: a CSS escape (`u\72l(`) would hide what the checks look for. */
function valueProblem(value: string): string | undefined {
  if (value.includes("\\")) return "escape in a value";
  if (externalUrl.test(value) || /@import|expression\(/i.test(value)) return "outside reference";
  return undefined;
}

function styleProblem(style: string): string | undefined {
  for (const declaration of style.split(";")) {
    if (!declaration.trim()) continue;
    const colon = declaration.indexOf(":");
    const property = (colon < 0 ? declaration : declaration.slice(0, colon)).trim().toLowerCase();
    if (!allowedStyleProperties.has(property)) return `style property ${property}`;
  }
  return undefined;
}

function attributeProblem(element: Element): string | undefined {
  for (const attribute of Array.from(element.attributes)) {
    // Namespace declarations draw nothing; an element of a declared foreign namespace is refused on its own.
    if (attribute.namespaceURI === xmlnsNamespace) continue;
    const name = (attribute.localName ?? attribute.name).toLowerCase();
    const namespace = attribute.namespaceURI;
    const allowed =
      namespace === null
        ? allowedAttributes.has(name)
        : (namespace === xlinkNamespace && name === "href") ||
          (namespace === xmlNamespace && (name === "space" || name === "lang"));
    if (!allowed) return `attribute ${attribute.name}`;
    if (name === "href" && !reference.test(attribute.value)) return "outside reference";
    const problem = valueProblem(attribute.value) ?? (name === "style" ? styleProblem(attribute.value) : undefined);
    if (problem) return problem;
  }
  return undefined;
}

function elementProblem(element: Element): string | undefined {
  const name = (element.localName ?? element.nodeName).toLowerCase();
  if (element.namespaceURI !== svgNamespace) return `element ${element.nodeName} outside SVG`;
  if (!allowedElements.has(name)) return `element ${name}`;
  return attributeProblem(element);
}

/** Text, CDATA and comments draw or say nothing harmful; the XML declaration is allowed; every other node is not. */
function nodeProblem(node: Node, topLevel: boolean): string | undefined {
  if (node.nodeType === 1) return elementProblem(node as Element);
  if (node.nodeType === 3 || node.nodeType === 4 || node.nodeType === 8) return undefined;
  // Processing instructions (xml-stylesheet) and doctype declarations (entities) are refused; `<?xml …?>` is not one.
  if (node.nodeType === 7 && topLevel && node.nodeName === "xml") return undefined;
  return "declaration";
}

/** Walks the tree without recursion, so a deeply nested file cannot overflow the stack. */
function treeProblem(document: Node): string | undefined {
  const pending: { node: Node; depth: number }[] = Array.from(document.childNodes).map((node) => ({ node, depth: 0 }));
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (next.depth > maxDepth) return "nested too deep";
    const problem = nodeProblem(next.node, next.depth === 0);
    if (problem) return problem;
    for (const child of Array.from(next.node.childNodes ?? [])) pending.push({ node: child, depth: next.depth + 1 });
  }
  return undefined;
}

function parse(source: string): { document?: Node & { documentElement: Element | null }; problem?: string } {
  let problem: string | undefined;
  try {
    const document = new DOMParser({
      onError: (level, message) => {
        if (level !== "warning") problem ??= `not XML: ${message}`;
      },
    }).parseFromString(source, "image/svg+xml");
    return problem ? { problem } : { document };
  } catch (error) {
    // xmldom throws a ParseError on a fatal error (a mismatched tag, a repeated attribute, no root element).
    return { problem: problem ?? `not XML: ${error instanceof Error ? error.message : "unreadable"}` };
  }
}

/** Why this SVG may not be an icon, or undefined when it is a plain drawing. */
export function svgProblem(source: string): string | undefined {
  // Most exports start with a byte order mark, which the parser would take for text outside the root.
  const text = source.replace(/^\uFEFF/, "");
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) return "declaration";
  const { document, problem } = parse(text);
  if (!document) return problem;
  const root = document.documentElement;
  if (root?.localName !== "svg" || root.namespaceURI !== svgNamespace) return "not an SVG";
  return treeProblem(document);
}
