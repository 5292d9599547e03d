//! The MCP server: the five drugcite tools (`tools.rs`) over the engine, behind a `ToolGate`
//! that admits each call (everything over local stdio; over HTTP the key's scope and credit,
//! see `http::mcp`). Speaks MCP through rmcp; knows no HTTP routing, keys or accounts.

mod args;
mod error;
pub mod tools;
mod views;

use std::future::Future;
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    JsonObject, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler, ServiceExt};

use args::Arguments;
use drugcite_accounts::scopes::Scope;
use drugcite_engine::engine::Engine;
use error::ToolError;
use tools::Tool;

/// Decides whether a tool call may run, and settles it afterwards (e.g. refunds a failure).
pub trait ToolGate: Send + Sync + 'static {
    /// What an admitted call carries until it is settled.
    type Pass: Send;
    /// `Err(reason)` refuses the call; the reason is shown to the agent.
    fn admit(
        &self,
        scope: Scope,
        context: &RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<Self::Pass, String>> + Send;
    fn settle(&self, pass: Self::Pass, succeeded: bool) -> impl Future<Output = ()> + Send;
}

/// Admits every call: the local stdio server, run by whoever can read the data directory.
pub struct OpenGate;

impl ToolGate for OpenGate {
    type Pass = ();
    async fn admit(&self, _: Scope, _: &RequestContext<RoleServer>) -> Result<(), String> {
        Ok(())
    }
    async fn settle(&self, _: (), _: bool) {}
}

const INSTRUCTIONS: &str = "drugcite answers from official US drug-label text. Every label segment carries a 128-bit fingerprint: quote segments verbatim, cite each quote as \"…\" [fp:<fingerprint>] with its DailyMed URL, and run check_quote on your answer before showing it.";

pub struct McpServer<G> {
    engine: Arc<Engine>,
    gate: Arc<G>,
}

impl<G> Clone for McpServer<G> {
    fn clone(&self) -> Self {
        Self {
            engine: Arc::clone(&self.engine),
            gate: Arc::clone(&self.gate),
        }
    }
}

impl<G: ToolGate> McpServer<G> {
    pub fn new(engine: Arc<Engine>, gate: Arc<G>) -> Self {
        Self { engine, gate }
    }

    async fn run(
        &self,
        tool: Tool,
        arguments: Option<JsonObject>,
    ) -> Result<CallToolResult, ErrorData> {
        let engine = Arc::clone(&self.engine);
        let args = Arguments::new(arguments);
        let outcome = tokio::task::spawn_blocking(move || tool.run(&engine, &args))
            .await
            .map_err(|e| ErrorData::internal_error(format!("tool task failed: {e}"), None))?;
        match outcome {
            Ok(value) => Ok(CallToolResult::structured(value)),
            Err(ToolError::Input(reason)) => Ok(refusal(reason)),
            Err(ToolError::Engine(e)) => {
                tracing::error!(tool = tool.name(), "MCP tool failed: {e}");
                Err(ErrorData::internal_error("internal server error", None))
            }
        }
    }
}

fn refusal(reason: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(reason)])
}

impl<G: ToolGate> ServerHandler for McpServer<G> {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("drugcite", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let tools = Tool::ALL
            .into_iter()
            .map(|tool| {
                let serde_json::Value::Object(schema) = tool.input_schema() else {
                    unreachable!("every input schema is an object")
                };
                rmcp::model::Tool::new(tool.name(), tool.description(), Arc::new(schema))
            })
            .collect();
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let Some(tool) = Tool::named(&request.name) else {
            return Err(ErrorData::invalid_params(
                format!("unknown tool {}", request.name),
                None,
            ));
        };
        let pass = match self.gate.admit(tool.scope(), &context).await {
            Ok(pass) => pass,
            Err(reason) => return Ok(refusal(reason).into()),
        };
        let result = self.run(tool, request.arguments).await;
        let succeeded = matches!(&result, Ok(r) if r.is_error != Some(true));
        self.gate.settle(pass, succeeded).await;
        result.map(Into::into)
    }
}

/// How often the stdio server looks for a newly published index generation.
const REFRESH_EVERY: std::time::Duration = std::time::Duration::from_secs(5);

/// Serves MCP over stdin/stdout until the client closes it, following new generations.
pub async fn serve_stdio(engine: Arc<Engine>) -> anyhow::Result<()> {
    let refresh = tokio::spawn(follow_generations(Arc::clone(&engine)));
    let server = McpServer::new(engine, Arc::new(OpenGate));
    let running = server.serve(rmcp::transport::stdio()).await?;
    running.waiting().await?;
    refresh.abort();
    Ok(())
}

async fn follow_generations(engine: Arc<Engine>) {
    let mut ticks = tokio::time::interval(REFRESH_EVERY);
    loop {
        ticks.tick().await;
        let engine = Arc::clone(&engine);
        match tokio::task::spawn_blocking(move || engine.refresh()).await {
            Ok(Err(e)) => tracing::error!("keeping the current index: {e}"),
            Err(e) => tracing::error!("index reload task failed: {e}"),
            Ok(Ok(_)) => {}
        }
    }
}
