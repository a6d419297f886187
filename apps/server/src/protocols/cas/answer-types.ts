import type { CasFailureCode } from "@kpi-id/contracts";
import type { CasAttributes } from "./attributes.ts";

/** A successful validation, as CAS Protocol 3.0 §2.5.2 and §2.6.2 answer it. */
export interface CasValidation {
  kind: "success";
  user: string;
  /** Released attributes; undefined on the CAS 2.0 paths of a client that must not see them (none today). */
  attributes?: CasAttributes;
  /** The proxy-granting ticket's IOU, when a proxy callback received the ticket itself. */
  pgtIou?: string;
  /** The proxies a proxy ticket came through, the most recent first. */
  proxies: string[];
}

export interface CasFailure {
  kind: "failure";
  code: CasFailureCode;
  description: string;
}

export type CasProxyAnswer = { kind: "success"; proxyTicket: string } | CasFailure;
