//! drugcite's server: the axum HTTP API, the web console, MCP and metrics over the engine and
//! the accounts. The only crate that knows HTTP, API keys on the wire and the error envelopes.

pub mod http;
pub mod mail;
pub mod mcp;
pub mod startup;
