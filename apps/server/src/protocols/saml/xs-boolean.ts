/**
 * An `xs:boolean` as XML Schema defines it: `true`, `false`, `1` or `0`, whitespace collapsed. Every SAML
 * and metadata flag is one (ForceAuthn, IsPassive, AuthnRequestsSigned, WantAssertionsSigned, isDefault,
 * isRequired): Shibboleth writes `1`, and reading only `"true"` ignored its ForceAuthn and IsPassive and
 * let unsigned requests through for SPs whose metadata says AuthnRequestsSigned="1" (issue 35).
 * Anything else is not a boolean and reads as absent (false).
 */
export function xsBoolean(value: string | null | undefined): boolean {
  const collapsed = (value ?? "").trim();
  return collapsed === "true" || collapsed === "1";
}
