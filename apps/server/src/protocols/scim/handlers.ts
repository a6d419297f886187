// Everything of SCIM that needs scimmy, loaded with the first SCIM request (routes.ts) rather than at start-up:
// an instance no HR or student system talks to does not hold scimmy and the schemas built on it (about 1.4 MiB
// in a process that already holds Fastify; issue 41's idle RSS). Loading this module sets scimmy up once for the process: scimmy's store of
// schemas, resource types and handlers is process-wide, and the handlers find each request in their context.
// A set-up that throws here now shows at the first SCIM request (answered 500) instead of stopping start-up;
// startup-modules.test.ts's first SCIM request and every SCIM test load this module, so it cannot ship broken.
import SCIMMY from "scimmy";
import { discoveryHandlers } from "./discovery-handlers.ts";
import { recognizeScimmyErrors } from "./errors.ts";
import { declareGroupHandlers, groupHandlers } from "./group-handlers.ts";
import { configureScimmy } from "./schema.ts";
import { declareUserHandlers, userHandlers } from "./user-handlers.ts";

recognizeScimmyErrors(SCIMMY.Types.Error);
configureScimmy();
declareUserHandlers();
declareGroupHandlers();

export const scimHandlers = { ...discoveryHandlers, ...userHandlers, ...groupHandlers };
