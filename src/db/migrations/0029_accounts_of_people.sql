-- Accounts of people (issue 25): a one-time link may also confirm a new email address. The link
-- carries the address it confirms (new_email), and only a change_email link has one. The change
-- takes effect when the link is used, so until then the user's email (and sign-in) stays as it was.
alter table user_tokens drop constraint user_tokens_purpose_check;
alter table user_tokens add constraint user_tokens_purpose_check check (purpose in ('set_password', 'change_email'));
alter table user_tokens add column new_email text;
alter table user_tokens add constraint user_tokens_new_email_check check ((purpose = 'change_email') = (new_email is not null));
-- The forgot-password form sends at most one email per user in a while: it reads the user's newest link.
create index user_tokens_by_user on user_tokens (account_id, user_id, created_at desc);
