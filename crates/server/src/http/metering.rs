//! Refunds a metered request that did not succeed: the access check charges before the
//! handler runs (so concurrent requests never overspend); this layer gives the charge back
//! when the answer is an error (a bad body, a server error). Holds no billing rules.

use std::sync::{Arc, Mutex};

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;

use super::AppState;
use drugcite_accounts::{Charge, KeyGrant};

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

pub async fn refund_failures(
    State(state): State<AppState>,
    mut request: Request,
    next: Next,
) -> Response {
    let slot = ChargeSlot::default();
    request.extensions_mut().insert(slot.clone());
    let response = next.run(request).await;
    if !response.status().is_success() {
        if let Some((grant, charge)) = slot.take() {
            state.accounts.refund(&grant, charge);
        }
    }
    response
}
