//! Group commit of debits: the requests waiting to be charged at the same moment share one
//! transaction (one fsync), each still checked and debited on its own inside it, and none is
//! answered before the commit. Owns the batching only; the SQL of a debit is `credit::debit`.

use sqlx::AnyPool;
use tokio::sync::{mpsc, oneshot};

use crate::debit::{debit, Charge};
use crate::grant::KeyGrant;
use crate::scopes::Scope;
use crate::{AccountError, Prices};

/// Most debits one transaction carries.
const MAX_BATCH: usize = 256;
/// Debits that may wait for the committer before callers wait to enqueue.
const QUEUE: usize = 4096;

type Reply = oneshot::Sender<Result<Charge, AccountError>>;

struct Pending {
    grant: KeyGrant,
    scope: Scope,
    reply: Reply,
}

/// The handle of the committer task (which ends when the handle is dropped).
pub struct Meter {
    queue: mpsc::Sender<Pending>,
}

impl Meter {
    /// Starts the committer on the current tokio runtime.
    pub fn start(pool: AnyPool, prices: Prices) -> Self {
        let (queue, pending) = mpsc::channel(QUEUE);
        tokio::spawn(commit_loop(pool, prices, pending));
        Self { queue }
    }

    pub async fn charge(&self, grant: KeyGrant, scope: Scope) -> Result<Charge, AccountError> {
        let (reply, answer) = oneshot::channel();
        let stopped = || AccountError::Database("the debit committer has stopped".into());
        self.queue
            .send(Pending {
                grant,
                scope,
                reply,
            })
            .await
            .map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }
}

async fn commit_loop(pool: AnyPool, prices: Prices, mut pending: mpsc::Receiver<Pending>) {
    while let Some(first) = pending.recv().await {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match pending.try_recv() {
                Ok(next) => batch.push(next),
                Err(_) => break,
            }
        }
        // One lock order for every batch on every server (accounts, then keys): no deadlocks.
        batch.sort_by(|a, b| {
            (&a.grant.account_id, &a.grant.key_id, a.scope).cmp(&(
                &b.grant.account_id,
                &b.grant.key_id,
                b.scope,
            ))
        });
        match commit(&pool, &prices, &batch).await {
            Ok(outcomes) => {
                for (request, outcome) in batch.into_iter().zip(outcomes) {
                    let _ = request.reply.send(outcome);
                }
            }
            Err(e) => {
                for request in batch {
                    let _ = request
                        .reply
                        .send(Err(AccountError::Database(e.to_string())));
                }
            }
        }
    }
}

/// One transaction for the batch: each debit's own outcome, or the error that aborted them all.
async fn commit(
    pool: &AnyPool,
    prices: &Prices,
    batch: &[Pending],
) -> Result<Vec<Result<Charge, AccountError>>, AccountError> {
    let mut tx = pool.begin().await?;
    let mut outcomes = Vec::with_capacity(batch.len());
    for request in batch {
        match debit(
            &mut tx,
            &request.grant,
            request.scope,
            prices.of(request.scope),
        )
        .await
        {
            Err(AccountError::CreditExhausted) => outcomes.push(Err(AccountError::CreditExhausted)),
            Err(e) => return Err(e),
            Ok(charge) => outcomes.push(Ok(charge)),
        }
    }
    tx.commit().await?;
    Ok(outcomes)
}
