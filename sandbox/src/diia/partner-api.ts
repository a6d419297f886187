import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { StandInState } from "./state.ts";

interface PartnerApiOptions {
  state: StandInState;
  /** The stand-in's own address (known once it listens): deep links point at its phone page. */
  publicUrl: () => string;
}

const branchAddressFields = ["region", "district", "location", "street", "house"] as const;

const hash32Base64 = /^[A-Za-z0-9+/]{43}=$/;

function fail(reply: FastifyReply, status: number, message: string) {
  return reply.code(status).send({ code: status, message });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(body: unknown, field: string): string | undefined {
  const value = isRecord(body) ? body[field] : undefined;
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

/** Diia's acquirer API, as its public SDKs use it: token, branch, offer, dynamic offer request. */
export function registerPartnerApi(app: FastifyInstance, { state, publicUrl }: PartnerApiOptions): void {
  const bearer = async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.authorization ?? "";
    const token = header.startsWith("Bearer ") ? header.slice(7) : "";
    if (!state.sessionValid(token)) return fail(reply, 401, "Unauthorized");
  };

  app.get<{ Params: { token: string } }>("/api/v1/auth/acquirer/:token", async (request, reply) => {
    if (request.params.token !== state.acquirerToken) return fail(reply, 401, "Unknown acquirer token");
    return { token: state.issueSession() };
  });

  app.post("/api/v2/acquirers/branch", { preHandler: bearer }, async (request, reply) => {
    const name = text(request.body, "name");
    const customFullName = text(request.body, "customFullName");
    if (!name || !customFullName) return fail(reply, 400, "name and customFullName are required");
    // Diia's SDK samples always send the address field by field; a branch without it is refused.
    const [region, district, location, street, house] = branchAddressFields.map((field) => text(request.body, field));
    if (!region || !district || !location || !street || !house) {
      return fail(reply, 400, `${branchAddressFields.join(", ")} are required`);
    }
    const body = request.body as Record<string, unknown>;
    const branch = state.addBranch({
      name,
      customFullName,
      region,
      district,
      location,
      street,
      house,
      customFullAddress: text(body, "customFullAddress"),
      email: text(body, "email"),
      scopes: body.scopes,
    });
    return { _id: branch._id };
  });

  app.get<{ Params: { branchId: string } }>(
    "/api/v2/acquirers/branch/:branchId",
    { preHandler: bearer },
    async (request, reply) => state.branches.get(request.params.branchId) ?? fail(reply, 404, "Branch not found"),
  );

  app.post<{ Params: { branchId: string } }>(
    "/api/v1/acquirers/branch/:branchId/offer",
    { preHandler: bearer },
    async (request, reply) => {
      if (!state.branches.has(request.params.branchId)) return fail(reply, 404, "Branch not found");
      const name = text(request.body, "name");
      if (!name) return fail(reply, 400, "name is required");
      return { _id: state.addOffer(request.params.branchId, name)._id };
    },
  );

  app.get<{ Params: { branchId: string } }>(
    "/api/v1/acquirers/branch/:branchId/offers",
    { preHandler: bearer },
    async (request) => ({
      offers: [...state.offers.values()].filter((offer) => offer.branchId === request.params.branchId),
    }),
  );

  app.post<{ Params: { branchId: string } }>(
    "/api/v2/acquirers/branch/:branchId/offer-request/dynamic",
    { preHandler: bearer },
    async (request, reply) => {
      const branch = state.branches.get(request.params.branchId);
      if (!branch) return fail(reply, 404, "Branch not found");
      const offer = state.offers.get(text(request.body, "offerId") ?? "");
      if (!offer || offer.branchId !== branch._id) return fail(reply, 404, "Offer not found");
      const requestId = text(request.body, "requestId") ?? "";
      if (!hash32Base64.test(requestId)) return fail(reply, 400, "requestId must be base64 of a 32-byte hash");
      if (text(request.body, "signAlgo") !== "DSTU") return fail(reply, 400, "signAlgo must be DSTU");
      const offerRequest = state.addOfferRequest(branch, offer, requestId);
      return { deeplink: `${publicUrl()}/acquirers/offer-request/dynamic/${offerRequest.otp}` };
    },
  );
}
