-- Issue 17: how strongly the session's person proved who they are. `amr` holds the RFC 8176
-- values achieved (pwd; pwd+otp+mfa; hwk/swk+user+mfa for a passkey; Diia counts as strong on
-- its own); `strong_at` is when a strong (multi-factor) proof last happened in this session,
-- so a step-up inside a session raises it without a new sign-in. Sessions from before this
-- migration keep the one factor their method gave.
alter table sessions add column amr text[] not null default '{}';
alter table sessions add column strong_at timestamptz;
update sessions set amr = case auth_method
  when 'PASSWORD' then array['pwd']
  when 'GOOGLE' then array['google']
  when 'DIIA' then array['diia', 'swk', 'mfa']
  else array[]::text[] end;
update sessions set strong_at = created_at where 'mfa' = any (amr);
