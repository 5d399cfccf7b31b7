-- Inbound STOP/START matches contacts by the digits of their number only: "+1 555 010 0008",
-- "1 555 010 0008" and "15550100008" are one number, whether or not a "+" was stored or sent.
drop index if exists contacts_phone_normalized;
create index contacts_phone_digits on contacts ((regexp_replace(phone, '[^0-9]', '', 'g'))) where phone is not null;
