-- Issue 35: public integrations run the Diia sign-in from their own server with plain HTTP and no
-- cookie jar, so the browser binding (0130) answered them "not found". A request made by such a caller
-- (no Origin, no Sec-Fetch-Site, no binding cookie) is marked server_side and bound to the caller's
-- address instead: check-request answers a cookie-less poll only for a server-side request and only from
-- the address that made it (SHA-256, the address itself is not kept). Browsers keep the cookie binding.
-- Expand only: an older release ignores both columns, and its requests read as browser-made.
alter table diia_requests add column caller_address_hash bytea;
alter table diia_requests add column server_side boolean not null default false;
