import { randomBytes, randomUUID } from "node:crypto";

export interface Branch {
  _id: string;
  name: string;
  customFullName: string;
  customFullAddress?: string;
  email?: string;
  region: string;
  district: string;
  location: string;
  street: string;
  house: string;
  scopes: unknown;
}

export interface Offer {
  _id: string;
  branchId: string;
  name: string;
}

export interface OfferRequest {
  otp: string;
  branch: Branch;
  offer: Offer;
  /** What the partner sent: base64 of GOST 34.311 of its own request id. */
  requestId: string;
  expiresAt: number;
  used: boolean;
}

// Diia's figures: a session token lives 2 hours, a deep link about 3 minutes.
const sessionLifetimeMs = 2 * 60 * 60 * 1000;
const deepLinkLifetimeMs = 3 * 60 * 1000;

/** The stand-in's memory: what Diia's backend keeps for one acquirer. */
export class StandInState {
  readonly acquirerToken = randomBytes(24).toString("base64url");
  readonly sessions = new Map<string, number>();
  readonly branches = new Map<string, Branch>();
  readonly offers = new Map<string, Offer>();
  readonly offerRequests = new Map<string, OfferRequest>();

  issueSession(now = Date.now()): string {
    const token = randomBytes(32).toString("base64url");
    this.sessions.set(token, now + sessionLifetimeMs);
    return token;
  }

  sessionValid(token: string, now = Date.now()): boolean {
    const expiresAt = this.sessions.get(token);
    return expiresAt !== undefined && now < expiresAt;
  }

  addBranch(fields: Omit<Branch, "_id">): Branch {
    const branch = { ...fields, _id: randomUUID().replace(/-/g, "") };
    this.branches.set(branch._id, branch);
    return branch;
  }

  addOffer(branchId: string, name: string): Offer {
    const offer = { _id: randomUUID().replace(/-/g, ""), branchId, name };
    this.offers.set(offer._id, offer);
    return offer;
  }

  addOfferRequest(branch: Branch, offer: Offer, requestId: string, now = Date.now()): OfferRequest {
    const request = {
      otp: randomBytes(16).toString("hex"),
      branch,
      offer,
      requestId,
      expiresAt: now + deepLinkLifetimeMs,
      used: false,
    };
    this.offerRequests.set(request.otp, request);
    return request;
  }
}
