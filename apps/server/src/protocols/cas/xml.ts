import { DOMImplementation, type Element, XMLSerializer } from "@xmldom/xmldom";
import type { CasFailure, CasProxyAnswer, CasValidation } from "./answer-types.ts";
import type { CasAttributes } from "./attributes.ts";

/** The CAS namespace every answer's elements are in (CAS Protocol 3.0 §2.5.2). */
const casNamespace = "http://www.yale.edu/tp/cas";

/**
 * A CAS answer document, built with xmldom's DOM so every value (names, attributes, URLs) is escaped by the
 * serializer rather than by hand. Loaded with the first validation (sign-in code never needs it).
 */
function casDocument(fill: (add: (parent: Element, name: string, text?: string) => Element, root: Element) => void) {
  const document = new DOMImplementation().createDocument(casNamespace, "cas:serviceResponse", null);
  const root = document.documentElement;
  if (!root) throw new Error("xmldom made no root element");
  const add = (parent: Element, name: string, text?: string) => {
    const element = document.createElementNS(casNamespace, `cas:${name}`);
    if (text !== undefined) element.appendChild(document.createTextNode(text));
    parent.appendChild(element);
    return element;
  };
  fill(add, root);
  return new XMLSerializer().serializeToString(document);
}

function addAttributes(
  add: (parent: Element, name: string, text?: string) => Element,
  parent: Element,
  attributes: CasAttributes,
) {
  const holder = add(parent, "attributes");
  for (const [name, values] of Object.entries(attributes)) for (const value of values) add(holder, name, value);
}

export function validationXml(answer: CasValidation | CasFailure): string {
  return casDocument((add, root) => {
    if (answer.kind === "failure") {
      const failure = add(root, "authenticationFailure", answer.description);
      failure.setAttribute("code", answer.code);
      return;
    }
    const success = add(root, "authenticationSuccess");
    add(success, "user", answer.user);
    if (answer.attributes) addAttributes(add, success, answer.attributes);
    if (answer.pgtIou) add(success, "proxyGrantingTicket", answer.pgtIou);
    if (answer.proxies.length > 0) {
      const proxies = add(success, "proxies");
      for (const proxy of answer.proxies) add(proxies, "proxy", proxy);
    }
  });
}

export function proxyXml(answer: CasProxyAnswer): string {
  return casDocument((add, root) => {
    if (answer.kind === "failure") {
      add(root, "proxyFailure", answer.description).setAttribute("code", answer.code);
      return;
    }
    add(add(root, "proxySuccess"), "proxyTicket", answer.proxyTicket);
  });
}
