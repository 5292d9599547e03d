//! `Access<R>`: the extractor that runs before a handler's body is read — API key check
//! (x-api-key, failed attempts limited per client address), scope check, then rate limit.
//! `R` states the route's scope and whether a key is required; handlers see only the outcome.

use std::marker::PhantomData;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;

use super::limits::Caller;
use super::{ApiError, AppState};
use crate::domain::ApiKey;
use crate::keys::{KeyRecord, Scope};

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
        let caller = match parts.headers.get("x-api-key") {
            None if R::KEY_REQUIRED => return Err(ApiError::Unauthorized),
            None => Caller::Address(address),
            Some(header) => {
                let record = authenticate(state, header.to_str().ok(), address).await?;
                if !record.scopes.contains(&R::SCOPE) {
                    return Err(ApiError::Forbidden);
                }
                Caller::Key(record.id)
            }
        };
        state.limits.check(&caller)?;
        Ok(Self(PhantomData))
    }
}

/// The record of a presented key. The key file is checked for changes off the async threads;
/// a malformed, unknown or revoked key counts against the client address.
async fn authenticate(
    state: &AppState,
    presented: Option<&str>,
    address: Option<IpAddr>,
) -> Result<KeyRecord, ApiError> {
    state.limits.check_not_blocked(address)?;
    let keys = Arc::clone(&state.keys);
    tokio::task::spawn_blocking(move || keys.refresh_if_changed())
        .await
        .map_err(|e| ApiError::Internal(format!("key file check failed: {e}")))?;
    presented
        .and_then(|raw| ApiKey::parse(raw.trim()).ok())
        .and_then(|key| state.keys.authenticate(&key).ok())
        .ok_or_else(|| state.limits.auth_failed(address))
}
