import samlify from "samlify";
import { validateSamlMessageSchema } from "./message-schema.ts";

// samlify refuses to parse without a schema validator; ours is libxml2 (WebAssembly) over the OASIS schemas.
// Set where samlify is imported, so whichever module uses it first (on the first SAML request) finds it set.
samlify.setSchemaValidator({
  validate: async (xml: string) => {
    await validateSamlMessageSchema(xml);
    return "valid";
  },
});

export { samlify };
