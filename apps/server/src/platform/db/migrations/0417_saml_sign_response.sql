-- Issue 35 point 5: stock pysaml2 and SATOSA refuse a Response whose outer element is unsigned, even with a
-- signed assertion. An operator can ask for the whole Response to be signed as well, per SP.
alter table saml_service_providers add column sign_response boolean not null default false;
