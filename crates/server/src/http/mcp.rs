//! `/mcp`: the MCP server over streamable HTTP (stateless, JSON answers), behind the API's
//! keys. Every request needs a valid key (else the 401 envelope) and passes the per-key rate
//! limit; each tool call then needs the scope of its REST twin and is metered like it
//! (refunded when the tool fails). The tools themselves are `crate::mcp`'s.

use std::sync::Arc;

use super::route_table::Routes;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::request::Parts;
use axum::middleware::{from_fn_with_state, Next};
use axum::response::Response;
use rmcp::service::{RequestContext, RoleServer};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

use super::access::authenticate;
use super::limits::Caller;
use super::{ApiError, AppState, API_KEY_HEADER, MAX_BODY_BYTES};
use crate::mcp::{McpServer, ToolGate};
use drugcite_accounts::scopes::Scope;
use drugcite_accounts::{Accounts, Charge, KeyGrant};

/// The `/mcp` route, keyed.
pub fn routes(state: &AppState) -> Routes {
    let gate = Arc::new(KeyGate {
        accounts: Arc::clone(&state.accounts),
    });
    let engine = Arc::clone(&state.engine);
    // Host checks guard keyless local servers against DNS rebinding; every request here
    // carries an API key, which a rebinding page does not have.
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .disable_allowed_hosts()
        .with_max_request_body_bytes(MAX_BODY_BYTES);
    let service = StreamableHttpService::new(
        move || Ok(McpServer::new(Arc::clone(&engine), Arc::clone(&gate))),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    Routes::new()
        .route_service("/mcp", service)
        .map_router(|router| router.layer(from_fn_with_state(state.clone(), require_key)))
}

/// Admits a request with a valid key within its rate limit, leaving the key's grant for the
/// tool calls it carries.
async fn require_key(
    State(state): State<AppState>,
    mut request: Request,
    next: Next,
) -> Result<Response, ApiError> {
    let address = request
        .extensions()
        .get::<ConnectInfo<std::net::SocketAddr>>()
        .map(|info| info.0.ip());
    let Some(header) = request.headers().get(&API_KEY_HEADER) else {
        return Err(ApiError::Unauthorized);
    };
    let grant = authenticate(&state, header.to_str().ok(), address).await?;
    state.limits.check(&Caller::Key(&grant.key_id))?;
    request.extensions_mut().insert(grant);
    Ok(next.run(request).await)
}

/// Scope and credit per tool call, from the grant `require_key` left in the request.
struct KeyGate {
    accounts: Arc<Accounts>,
}

impl ToolGate for KeyGate {
    type Pass = (Arc<KeyGrant>, Charge);

    async fn admit(
        &self,
        scope: Scope,
        context: &RequestContext<RoleServer>,
    ) -> Result<Self::Pass, String> {
        let grant = context
            .extensions
            .get::<Parts>()
            .and_then(|parts| parts.extensions.get::<Arc<KeyGrant>>())
            .cloned()
            .ok_or("no API key reached this tool call")?;
        if !grant.scopes.contains(&scope) {
            return Err(format!("this API key lacks scope `{}`", scope.as_str()));
        }
        match self.accounts.charge(&grant, scope).await {
            Ok(charge) => Ok((grant, charge)),
            Err(e) => Err(ApiError::from(e).to_string()),
        }
    }

    async fn settle(&self, (grant, charge): Self::Pass, succeeded: bool) {
        if !succeeded {
            self.accounts.refund(&grant, charge);
        }
    }
}
