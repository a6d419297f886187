import { type CasAttributeName, type CasAttributeRenames, casAttributeNames } from "@kpi-id/contracts";

const isAttribute = (word: string): word is CasAttributeName => (casAttributeNames as readonly string[]).includes(word);

const wordsOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((word) => word.trim())
    .filter((word) => word !== "");

/**
 * The console's two text fields of a service's release policy, read as the CLI's `--attributes` and `--rename`
 * read them: "uid, mail" and "mail=email uid=username". What the server would refuse as a whole request
 * (request.validation_failed) is told here by the word that is wrong; the names themselves the server judges.
 */
export type ReleaseFields =
  | { attributes: CasAttributeName[]; renames: CasAttributeRenames }
  | { problem: "unknownAttribute" | "renameFormat"; word: string };

export function readReleaseFields(attributesText: string, renamesText: string): ReleaseFields {
  const attributes: CasAttributeName[] = [];
  for (const word of wordsOf(attributesText)) {
    if (!isAttribute(word)) return { problem: "unknownAttribute", word };
    attributes.push(word);
  }
  const renames: CasAttributeRenames = {};
  for (const word of wordsOf(renamesText)) {
    const [attribute = "", name, ...rest] = word.split("=");
    if (name === undefined || name === "" || rest.length > 0) return { problem: "renameFormat", word };
    if (!isAttribute(attribute)) return { problem: "unknownAttribute", word: attribute };
    renames[attribute] = name;
  }
  return { attributes, renames };
}

/** "uid → username, mail → email, displayName": each attribute as the service's client receives it. */
export function releasedNames(service: { attributes: CasAttributeName[]; renames: CasAttributeRenames }): string {
  return service.attributes
    .map((attribute) => {
      const name = service.renames[attribute];
      return name === undefined ? attribute : `${attribute} → ${name}`;
    })
    .join(", ");
}
