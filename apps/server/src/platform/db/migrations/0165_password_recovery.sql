-- Issue 16: getting back in. A password reset link or a Diia recovery hands out a one-time token,
-- stored as its SHA-256 only; it lives 30 minutes, works once, and a newer one replaces it.
create table password_reset_tokens (
  token_hash bytea primary key,
  user_id uuid not null references users (id) on delete cascade,
  -- How the person proved who they are: 'email' (the link) or 'diia'.
  via text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  consumed_at timestamptz
);
create index password_reset_tokens_user_idx on password_reset_tokens (user_id);
create index password_reset_tokens_expiry_idx on password_reset_tokens (expires_at);

