/**
 * A ListResponse (RFC 7644 §3.4.2.4) written here rather than by scimmy, whose list repeats the results when
 * startIndex is past the end (a client paging to the end never stops) and says itemsPerPage is the count asked.
 */
const listResponseSchema = "urn:ietf:params:scim:api:messages:2.0:ListResponse";

export interface ScimList<T> {
  schemas: [typeof listResponseSchema];
  totalResults: number;
  startIndex: number;
  itemsPerPage: number;
  Resources: T[];
}

/** One page that is already cut: itemsPerPage is the number of resources it holds. */
export function listResponse<T>(page: T[], startIndex: number, totalResults: number): ScimList<T> {
  return { schemas: [listResponseSchema], totalResults, startIndex, itemsPerPage: page.length, Resources: page };
}

/** The page of a whole list from startIndex (1-based): empty past the end. */
export function pageOf<T>(all: readonly T[], startIndex: number, count: number): ScimList<T> {
  return listResponse(all.slice(startIndex - 1, startIndex - 1 + count), startIndex, all.length);
}
