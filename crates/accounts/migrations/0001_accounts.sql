-- Accounts, their API keys, console sessions, usage and the credit ledger.
-- Portable between SQLite and PostgreSQL: text ids made by drugcite, BIGINT integers
-- (unix seconds, micro-dollars, 0/1 flags), no database-specific types.
CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    password_hash TEXT,
    credit_micros BIGINT NOT NULL,
    unlimited BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    name TEXT NOT NULL,
    scopes TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    revoked_at BIGINT
);
CREATE INDEX api_keys_by_account ON api_keys (account_id);
CREATE TABLE sessions (
    token_sha256 TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    expires_at BIGINT NOT NULL
);
CREATE TABLE usage_daily (
    key_id TEXT NOT NULL REFERENCES api_keys (id),
    day BIGINT NOT NULL,
    endpoint TEXT NOT NULL,
    requests BIGINT NOT NULL,
    spent_micros BIGINT NOT NULL,
    PRIMARY KEY (key_id, day, endpoint)
);
CREATE TABLE credit_ledger (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    at BIGINT NOT NULL,
    amount_micros BIGINT NOT NULL,
    reason TEXT NOT NULL
);
CREATE INDEX credit_ledger_by_account ON credit_ledger (account_id, at);
