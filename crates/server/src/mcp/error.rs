//! What a tool call can fail with: bad arguments (told to the agent as a tool error it can act
//! on) or an engine failure. Kinds only; the tools decide when.

use drugcite_engine::engine::EngineError;

#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    /// Bad arguments or a refusal: told to the agent as a tool error it can act on.
    #[error("{0}")]
    Input(String),
    #[error(transparent)]
    Engine(#[from] EngineError),
}

impl From<drugcite_core::domain::InvalidInput> for ToolError {
    fn from(invalid: drugcite_core::domain::InvalidInput) -> Self {
        Self::Input(invalid.to_string())
    }
}
