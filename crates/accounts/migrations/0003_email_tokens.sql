-- Email ownership: when an account's address was confirmed (accounts made before this
-- migration, and by the operator, count as confirmed), and the single-use tokens mailed to
-- confirm an address or reset a password (only their SHA-256 is stored).
ALTER TABLE accounts ADD COLUMN email_verified_at BIGINT;
UPDATE accounts SET email_verified_at = created_at;
CREATE TABLE email_tokens (
    token_sha256 TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    purpose TEXT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at BIGINT
);
CREATE INDEX email_tokens_by_account ON email_tokens (account_id, purpose);
