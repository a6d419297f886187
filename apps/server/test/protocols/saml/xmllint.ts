import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Debian's libxml2-utils, opensaml-schemas and xmltooling-schemas (installed by .ci/run): the
// metadata schema with the mdui, mdattr, mdrpi and algsupport extension schemas the federations use.
const opensaml = "/usr/share/xml/opensaml";
const xmltooling = "/usr/share/xml/xmltooling";
const wrapper = `<?xml version="1.0"?>
<schema xmlns="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:kpi-id:test" elementFormDefault="qualified">
  <import namespace="http://www.w3.org/XML/1998/namespace" schemaLocation="${xmltooling}/xml.xsd"/>
  <import namespace="http://www.w3.org/2000/09/xmldsig#" schemaLocation="${xmltooling}/xmldsig-core-schema.xsd"/>
  <import namespace="http://www.w3.org/2001/04/xmlenc#" schemaLocation="${xmltooling}/xenc-schema.xsd"/>
  <import namespace="urn:oasis:names:tc:SAML:2.0:metadata" schemaLocation="${opensaml}/saml-schema-metadata-2.0.xsd"/>
  <import namespace="urn:oasis:names:tc:SAML:2.0:protocol" schemaLocation="${opensaml}/saml-schema-protocol-2.0.xsd"/>
  <import namespace="urn:oasis:names:tc:SAML:metadata:ui" schemaLocation="${opensaml}/sstc-saml-metadata-ui-v1.0.xsd"/>
  <import namespace="urn:oasis:names:tc:SAML:metadata:attribute" schemaLocation="${opensaml}/sstc-metadata-attr.xsd"/>
  <import namespace="urn:oasis:names:tc:SAML:metadata:rpi" schemaLocation="${opensaml}/saml-metadata-rpi-v1.0.xsd"/>
  <import namespace="urn:oasis:names:tc:SAML:metadata:algsupport" schemaLocation="${opensaml}/sstc-saml-metadata-algsupport-v1.0.xsd"/>
</schema>`;

/** Validates with Debian's xmllint; returns its verdict line and errors. */
export function xmllintValidate(xml: string): { valid: boolean; output: string } {
  const dir = mkdtempSync(join(tmpdir(), "kpi-id-xmllint-"));
  writeFileSync(join(dir, "schema.xsd"), wrapper);
  writeFileSync(join(dir, "document.xml"), xml);
  const run = spawnSync("xmllint", ["--nonet", "--noout", "--schema", "schema.xsd", "document.xml"], {
    cwd: dir,
    env: { ...process.env, XML_CATALOG_FILES: `${opensaml}/saml20-catalog.xml ${xmltooling}/catalog.xml` },
    encoding: "utf8",
  });
  // xmllint reports "document.xml validates" (or the errors) on standard error.
  return { valid: run.status === 0, output: `${run.stdout}${run.stderr}${run.error ?? ""}` };
}
