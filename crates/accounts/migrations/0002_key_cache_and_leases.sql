-- Keys checked from a cache on every server, usage written in batches, credit spent from leases.
-- grant_revision: one row, bumped in the transaction of every change to what a key may do (a
--   revocation); servers poll it and stop trusting keys they cached before it.
-- credit_leases: credit a server took out of an account to spend locally. For every account,
--   its ledger (grants + usage) = accounts.credit_micros + the held_micros of its leases.
--   A server returns what it did not spend; a lease not renewed by expires_at is forfeit.
-- api_keys.last_used_at: unix seconds of the last request seen, written with the usage.
CREATE TABLE grant_revision (
    id BIGINT PRIMARY KEY,
    revision BIGINT NOT NULL
);
INSERT INTO grant_revision (id, revision) VALUES (1, 0);
CREATE TABLE credit_leases (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    server_id TEXT NOT NULL,
    held_micros BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX credit_leases_by_account ON credit_leases (account_id, server_id);
CREATE INDEX credit_leases_by_expiry ON credit_leases (expires_at);
ALTER TABLE api_keys ADD COLUMN last_used_at BIGINT;
