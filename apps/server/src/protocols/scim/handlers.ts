// Everything of SCIM that needs scimmy, loaded with the first SCIM request (routes.ts) rather than at start-up:
// scimmy and the schemas built on it weigh about 6 MiB that an instance no HR or student system talks to never
// needs (issue 41's idle RSS). Loading this module sets scimmy up once for the process: scimmy's store of
// schemas, resource types and handlers is process-wide, and the handlers find each request in their context.
import SCIMMY from "scimmy";
import { discoveryHandlers } from "./discovery-handlers.ts";
import { recognizeScimmyErrors } from "./errors.ts";
import { declareGroupHandlers, groupHandlers } from "./group-handlers.ts";
import { configureScimmy } from "./schema.ts";
import { declareUserHandlers, userHandlers } from "./user-handlers.ts";

configureScimmy();
recognizeScimmyErrors(SCIMMY.Types.Error);
declareUserHandlers();
declareGroupHandlers();

export const scimHandlers = { ...discoveryHandlers, ...userHandlers, ...groupHandlers };
