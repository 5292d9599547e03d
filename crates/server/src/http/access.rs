//! `Access<R>`: the extractor that runs before a handler's body is read — API key check
//! (x-api-key through the accounts' key cache, failed attempts limited per client address),
//! scope check, rate limit, then the request's charge to the key's account (in memory; a
//! keyless verify is free; `metering` refunds a request that fails). `R` states the route's
//! scope and whether a key is required.

use std::marker::PhantomData;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;

use super::limits::Caller;
use super::metering::ChargeSlot;
use super::{ApiError, AppState, API_KEY_HEADER};
use drugcite_accounts::scopes::Scope;
use drugcite_accounts::KeyGrant;
use drugcite_core::domain::ApiKey;

pub trait Requirement: Send + Sync {
    const SCOPE: Scope;
    const KEY_REQUIRED: bool;
}

/// Search: key with scope `search` required.
pub struct SearchAccess;
impl Requirement for SearchAccess {
    const SCOPE: Scope = Scope::Search;
    const KEY_REQUIRED: bool = true;
}

/// Verify: open to third parties checking citations, but a key that is sent must be valid
/// and carry scope `verify`.
pub struct VerifyAccess;
impl Requirement for VerifyAccess {
    const SCOPE: Scope = Scope::Verify;
    const KEY_REQUIRED: bool = false;
}

/// Graph: key with scope `graph` required.
pub struct GraphAccess;
impl Requirement for GraphAccess {
    const SCOPE: Scope = Scope::Graph;
    const KEY_REQUIRED: bool = true;
}

pub struct Access<R>(PhantomData<R>);

impl<R: Requirement> FromRequestParts<AppState> for Access<R> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let address = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|info| info.0.ip());
        match parts.headers.get(&API_KEY_HEADER) {
            None if R::KEY_REQUIRED => return Err(ApiError::Unauthorized),
            None => state.limits.check(&Caller::Address(address))?,
            Some(header) => {
                let grant = authenticate(state, header.to_str().ok(), address).await?;
                if !grant.scopes.contains(&R::SCOPE) {
                    return Err(ApiError::Forbidden);
                }
                state.limits.check(&Caller::Key(&grant.key_id))?;
                let charge = state.accounts.charge(&grant, R::SCOPE).await?;
                if let Some(slot) = parts.extensions.get::<ChargeSlot>() {
                    slot.put(grant, charge);
                }
            }
        }
        Ok(Self(PhantomData))
    }
}

/// What a presented key may do, through the accounts' key cache (a revocation made on any
/// server holds within the key poll); a malformed, unknown or revoked key counts against the
/// client address.
pub(super) async fn authenticate(
    state: &AppState,
    presented: Option<&str>,
    address: Option<IpAddr>,
) -> Result<Arc<KeyGrant>, ApiError> {
    state.limits.check_not_blocked(address)?;
    let Some(key) = presented.and_then(|raw| ApiKey::parse(raw.trim()).ok()) else {
        return Err(state.limits.auth_failed(address));
    };
    state
        .accounts
        .authenticate_key(&key)
        .await?
        .map_err(|_| state.limits.auth_failed(address))
}
