//! The command line of accounts, keys and credit (`drugcite accounts …`, `drugcite keys …`)
//! and the `serve` flags of accounts, billing and the console. Parses and prints only; the
//! accounts engine does the work.

use std::io::BufRead;
use std::time::Duration;

use anyhow::Context;
use drugcite_accounts::scopes::Scope;
use drugcite_accounts::{
    Account, Accounts, Credit, Email, KeyName, Metering, Password, Policy, Prices,
};
use drugcite_server::startup::AccountsConfig;

use super::onboarding::OnboardingArgs;
use super::usd::usd;
use drugcite_store::DataDir;

/// Billing: starting credit and prices, in USD (exact to the micro-dollar).
#[derive(clap::Args)]
pub struct PolicyArgs {
    /// Credit a new account starts with.
    #[arg(long, env = "DRUGCITE_STARTING_CREDIT_USD", default_value = "5.00", value_parser = usd)]
    starting_credit_usd: Credit,
    /// Price of one /v1/search.
    #[arg(long, env = "DRUGCITE_PRICE_SEARCH_USD", default_value = "0.005", value_parser = usd)]
    price_search_usd: Credit,
    /// Price of one keyed /v1/verify (keyless verify is always free).
    #[arg(long, env = "DRUGCITE_PRICE_VERIFY_USD", default_value = "0", value_parser = usd)]
    price_verify_usd: Credit,
    /// Price of one /v1/graph.
    #[arg(long, env = "DRUGCITE_PRICE_GRAPH_USD", default_value = "0.005", value_parser = usd)]
    price_graph_usd: Credit,
    /// Only the operator makes accounts (`drugcite accounts create`); the console has no sign-up.
    #[arg(long, env = "DRUGCITE_INVITE_ONLY")]
    invite_only: bool,
}

impl PolicyArgs {
    fn policy(&self) -> Policy {
        Policy {
            starting_credit: self.starting_credit_usd,
            prices: Prices {
                search: self.price_search_usd,
                verify: self.price_verify_usd,
                graph: self.price_graph_usd,
            },
            open_signup: !self.invite_only,
            metering: Metering::default(),
        }
    }
}

/// `serve`'s accounts flags.
#[derive(clap::Args)]
pub struct ServeAccountsArgs {
    /// Serve the web console (sign-up, keys, usage, playground) under /console.
    #[arg(long, env = "DRUGCITE_CONSOLE")]
    console: bool,
    /// Mark console cookies Secure; set it when clients reach drugcite over TLS.
    #[arg(long, env = "DRUGCITE_SECURE_COOKIES")]
    secure_cookies: bool,
    #[command(flatten)]
    policy: PolicyArgs,
    #[command(flatten)]
    onboarding: OnboardingArgs,
    /// Credit a server reserves from an account at a time and spends without the database;
    /// bounds what a killed server can take from an account.
    #[arg(long, env = "DRUGCITE_CREDIT_LEASE_USD", default_value = "0.10", value_parser = usd)]
    credit_lease_usd: Credit,
    /// Seconds after which a lease its server stopped renewing is forfeit.
    #[arg(long, env = "DRUGCITE_CREDIT_LEASE_TTL_SECS", default_value_t = 30)]
    credit_lease_ttl_secs: u64,
    /// How often usage is written to the accounts database, in milliseconds.
    #[arg(long, env = "DRUGCITE_USAGE_FLUSH_MS", default_value_t = 1000)]
    usage_flush_ms: u64,
    /// How often the key revision is read (a revocation holds everywhere within it), in ms.
    #[arg(long, env = "DRUGCITE_KEY_POLL_MS", default_value_t = 250)]
    key_poll_ms: u64,
}

impl ServeAccountsArgs {
    pub fn config(&self, database_url: Option<String>) -> AccountsConfig {
        let mut policy = self.policy.policy();
        policy.metering = Metering {
            lease: self.credit_lease_usd,
            lease_ttl: Duration::from_secs(self.credit_lease_ttl_secs.max(1)),
            flush_every: Duration::from_millis(self.usage_flush_ms.max(1)),
            key_poll_every: Duration::from_millis(self.key_poll_ms.max(1)),
            ..Metering::default()
        };
        AccountsConfig {
            database_url,
            policy,
            console: self.console,
            secure_cookies: self.secure_cookies,
            onboarding: self.onboarding.onboarding(),
            mail: self.onboarding.mail(),
            public_url: self.onboarding.public_url(),
            low_credit: self.onboarding.low_credit(),
        }
    }
}

#[derive(clap::Subcommand)]
pub enum AccountsCommand {
    /// Make an account (with the starting credit); with --password-stdin it can log in to the console.
    Create {
        #[arg(long)]
        email: String,
        /// Read the password from the first line of stdin.
        #[arg(long)]
        password_stdin: bool,
        /// Never charged (for the operator's own services).
        #[arg(long)]
        unlimited: bool,
        #[command(flatten)]
        policy: PolicyArgs,
    },
    /// List accounts with their credit.
    List,
    /// Add credit to an account (a negative amount takes it away); recorded in its ledger.
    Grant {
        #[arg(long)]
        email: String,
        #[arg(long, allow_hyphen_values = true)]
        usd: String,
        #[arg(long, default_value = "operator grant")]
        reason: String,
    },
    /// Print an account's ledger: grants and daily debits per key and endpoint, and the balance.
    Ledger {
        #[arg(long)]
        email: String,
    },
}

#[derive(clap::Subcommand)]
pub enum KeysCommand {
    /// Create a key; the key is printed once, alone on the last line.
    Create {
        #[arg(long)]
        name: String,
        /// Comma-separated: search, verify, graph.
        #[arg(long, default_value = "search,verify,graph")]
        scopes: String,
        /// The account the key belongs to (default: the operator account, unlimited).
        #[arg(long)]
        account: Option<String>,
    },
    /// List keys with their accounts (never the keys themselves).
    List,
    /// Revoke a key by id; every running server refuses it within its key poll (default 250 ms).
    Revoke { id: String },
}

/// Runs `work` against the accounts database of `data_dir` (or `database_url`).
fn with_accounts<T>(
    data_dir: &DataDir,
    database_url: Option<String>,
    policy: Policy,
    work: impl AsyncFnOnce(&Accounts) -> anyhow::Result<T>,
) -> anyhow::Result<T> {
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(async {
        let config = AccountsConfig {
            database_url,
            policy,
            ..AccountsConfig::default()
        };
        let accounts = config.open(data_dir).await?;
        accounts.migrate_key_file(&data_dir.keys_path()).await?;
        work(&accounts).await
    })
}

pub fn accounts(
    data_dir: &DataDir,
    database_url: Option<String>,
    command: AccountsCommand,
) -> anyhow::Result<()> {
    let policy = match &command {
        AccountsCommand::Create { policy, .. } => policy.policy(),
        _ => Policy::default(),
    };
    with_accounts(
        data_dir,
        database_url,
        policy,
        async move |accounts| match command {
            AccountsCommand::Create {
                email,
                password_stdin,
                unlimited,
                ..
            } => {
                let email = Email::parse(&email)?;
                let password = if password_stdin {
                    Some(Password::parse(&read_line()?, &email)?)
                } else {
                    None
                };
                let account = accounts.create_account(&email, password, unlimited).await?;
                println!(
                    "created account {} ({}) with {}",
                    account.id,
                    account.email,
                    describe_credit(&account)
                );
                Ok(())
            }
            AccountsCommand::List => {
                for account in accounts.list_accounts().await? {
                    println!(
                        "{}\t{}\t{}",
                        account.id,
                        account.email,
                        describe_credit(&account)
                    );
                }
                Ok(())
            }
            AccountsCommand::Grant { email, usd, reason } => {
                let account = accounts.account_by_email(&Email::parse(&email)?).await?;
                let balance = accounts
                    .grant(&account.id, Credit::parse_usd(&usd)?, &reason)
                    .await?;
                println!("{}: balance {balance}", account.email);
                Ok(())
            }
            AccountsCommand::Ledger { email } => {
                let account = accounts.account_by_email(&Email::parse(&email)?).await?;
                for entry in accounts.ledger(&account.id).await? {
                    println!("{}\t{}\t{}", entry.at, entry.amount, entry.reason);
                }
                println!("balance\t{}", describe_credit(&account));
                Ok(())
            }
        },
    )
}

pub fn keys(
    data_dir: &DataDir,
    database_url: Option<String>,
    command: KeysCommand,
) -> anyhow::Result<()> {
    with_accounts(
        data_dir,
        database_url,
        Policy::default(),
        async move |accounts| match command {
            KeysCommand::Create {
                name,
                scopes,
                account,
            } => {
                let owner = match account {
                    Some(email) => accounts.account_by_email(&Email::parse(&email)?).await?,
                    None => accounts.operator().await?,
                };
                let (record, key) = accounts
                    .create_key(
                        &owner.id,
                        &KeyName::parse(&name)?,
                        &Scope::parse_list(&scopes)?,
                    )
                    .await?;
                println!(
                    "created key {} ({}) for {} with scopes {}",
                    record.id,
                    record.name,
                    owner.email,
                    Scope::join(&record.scopes)
                );
                println!("{}", key.expose());
                Ok(())
            }
            KeysCommand::List => {
                for (key, email) in accounts.all_keys().await? {
                    let state = if key.revoked_at.is_some() {
                        "revoked"
                    } else {
                        "active"
                    };
                    let used = key.last_used_rfc3339();
                    println!(
                        "{}\t{}\t{}\t{}\tcreated {}\tlast used {}\t{state}",
                        key.id,
                        key.name,
                        email,
                        Scope::join(&key.scopes),
                        key.created_at,
                        used.as_deref().unwrap_or("never")
                    );
                }
                Ok(())
            }
            KeysCommand::Revoke { id } => {
                let record = accounts.revoke_key(None, &id).await?;
                println!("revoked key {} ({})", record.id, record.name);
                Ok(())
            }
        },
    )
}

fn describe_credit(account: &Account) -> String {
    if account.unlimited {
        "unlimited credit".into()
    } else {
        account.credit.to_string()
    }
}

fn read_line() -> anyhow::Result<String> {
    let mut line = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut line)
        .context("reading the password from stdin")?;
    Ok(line.trim_end_matches(['\r', '\n']).to_owned())
}
