-- Issue 39: an application opts in to the OAuth 2.0 Device Authorization Grant (RFC 8628) for bots,
-- terminals and lecture-hall screens. Off by default, so every existing client keeps exactly the
-- grants it had; an operator turns it on with `kpi-id app update --device-flow`.
alter table applications add column oidc_device_flow boolean not null default false;
