-- Webhook triggers: each automation's inbound URL carries a random secret; only its SHA-256 is
-- stored, and the URL is found by that hash.
create unique index automations_webhook_secret on automations (webhook_secret) where webhook_secret is not null;
