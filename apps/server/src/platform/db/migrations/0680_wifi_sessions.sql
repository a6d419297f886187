-- Wi-Fi sessions from RADIUS accounting (issue 73): where each device is connected now, so that KPI ID can ask the
-- controller holding it to disconnect it (RFC 5176, through FreeRADIUS) when access ends, and the account page can
-- show where a password is in use. model/wifi owns the table.
--
-- controller: the Operator-NAS-Identifier FreeRADIUS adds to accounting (the client's shortname in clients.conf,
-- RFC 8559), which it maps back to the controller's CoA home server. calling_station is the device's MAC in clear,
-- kept only while the session is open (a Disconnect-Request names it); the row goes at Stop, when the controller
-- restarts (Accounting-On/Off), on a disconnect the controller acknowledged, or after hours without an update.
create table wifi_sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  password_id uuid not null references wifi_passwords (id) on delete cascade,
  controller text not null,
  acct_session_id text not null,
  user_name text,
  calling_station text,
  nas_ip_address text,
  nas_identifier text,
  started_at timestamptz not null,
  updated_at timestamptz not null,
  unique (controller, acct_session_id)
);
create index wifi_sessions_user_idx on wifi_sessions (user_id);
create index wifi_sessions_password_idx on wifi_sessions (password_id);
create index wifi_sessions_updated_at_idx on wifi_sessions (updated_at);
