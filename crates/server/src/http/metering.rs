//! Refunds a metered request that did not succeed: the access check charges before the
//! handler runs (so concurrent requests never overspend); this layer gives the charge back
//! when the answer is an error (a bad body, a server error) or never comes (a timeout). Only requests that carry a key
//! can be charged, so only they get a slot. Holds no billing rules.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use axum::extract::Request;
use axum::response::Response;
use tower::Service;

use super::API_KEY_HEADER;
use drugcite_accounts::{Accounts, Charge, KeyGrant};

/// Where the access check leaves the debit of the request it admitted.
#[derive(Clone, Default)]
pub struct ChargeSlot(Arc<Mutex<Option<Charged>>>);

/// The grant a request was charged under, and the charge.
type Charged = (Arc<KeyGrant>, Charge);

impl ChargeSlot {
    pub fn put(&self, grant: Arc<KeyGrant>, charge: Charge) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some((grant, charge));
    }

    fn take(&self) -> Option<Charged> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

/// Gives back the charge of a keyed request whose answer is not a success.
#[derive(Clone)]
pub struct RefundFailures<S> {
    inner: S,
    accounts: Arc<Accounts>,
}

impl<S> RefundFailures<S> {
    pub fn new(inner: S, accounts: Arc<Accounts>) -> Self {
        Self { inner, accounts }
    }
}

impl<S> Service<Request> for RefundFailures<S>
where
    S: Service<Request, Response = Response>,
{
    type Response = Response;
    type Error = S::Error;
    type Future = Refunding<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: Request) -> Self::Future {
        let slot = request.headers().contains_key(&API_KEY_HEADER).then(|| {
            let slot = ChargeSlot::default();
            request.extensions_mut().insert(slot.clone());
            (slot, Arc::clone(&self.accounts))
        });
        Refunding {
            inner: self.inner.call(request),
            slot,
        }
    }
}

pin_project_lite::pin_project! {
    pub struct Refunding<F> {
        #[pin]
        inner: F,
        slot: Option<(ChargeSlot, Arc<Accounts>)>,
    }

    // Dropped unanswered (the request timed out, the client went away): the request failed.
    impl<F> PinnedDrop for Refunding<F> {
        fn drop(this: Pin<&mut Self>) {
            refund(this.project().slot.take());
        }
    }
}

fn refund(slot: Option<(ChargeSlot, Arc<Accounts>)>) {
    if let Some((slot, accounts)) = slot {
        if let Some((grant, charge)) = slot.take() {
            accounts.refund(&grant, charge);
        }
    }
}

impl<F, E> Future for Refunding<F>
where
    F: Future<Output = Result<Response, E>>,
{
    type Output = Result<Response, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let outcome = std::task::ready!(this.inner.poll(cx));
        let slot = this.slot.take();
        if outcome
            .as_ref()
            .map_or(true, |response| !response.status().is_success())
        {
            refund(slot);
        }
        Poll::Ready(outcome)
    }
}
