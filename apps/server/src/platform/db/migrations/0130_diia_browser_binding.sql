-- Issue 14: a Diia sign-in request belongs to the browser that asked for its deep link. This is
-- the SHA-256 of that browser's random binding cookie (diia/browser-binding.ts); check-request
-- hands the status and the grant only to a caller presenting it. Requests made before this
-- migration have none and are answered as unknown (they expire within minutes anyway).
alter table diia_requests add column browser_hash bytea;
