-- Front-channel Single Logout (docs/saml.md): when a KPI ID session ends in the browser
-- (an SP's LogoutRequest, or signing out on KPI ID), the browser carries a LogoutRequest to
-- every other SP of that session in turn, then the answer to whoever started it.
create table saml_logout_rounds (
  id text primary key,
  -- The SP that sent the LogoutRequest, answered last; null when KPI ID's own sign-out started it.
  initiator_sp text,
  initiator_request_id text,
  initiator_relay_state text,
  -- Where the browser goes at the end of a KPI ID sign-out.
  return_to text,
  -- The ID of the LogoutRequest sent to the SP whose answer is awaited.
  awaiting_request_id text,
  expires_at timestamptz not null
);

create table saml_logout_participants (
  round_id text not null references saml_logout_rounds (id) on delete cascade,
  sp_entity_id text not null,
  name_id text not null,
  session_index text not null,
  primary key (round_id, sp_entity_id)
);

create index saml_logout_rounds_awaiting on saml_logout_rounds (awaiting_request_id);
