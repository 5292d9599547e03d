//! A tool call's arguments taken apart field by field: unknown fields are ignored, `null` is
//! the same as absent, a field of the wrong type is an input error the agent can correct.

use serde_json::{Map, Value};

use super::error::ToolError;

pub struct Arguments(Map<String, Value>);

impl Arguments {
    pub fn new(arguments: Option<Map<String, Value>>) -> Self {
        Self(arguments.unwrap_or_default())
    }

    pub fn text(&self, name: &str) -> Result<Option<String>, ToolError> {
        match self.0.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(text)) => Ok(Some(text.clone())),
            Some(_) => Err(ToolError::Input(format!("{name} must be a string"))),
        }
    }

    pub fn integer(&self, name: &str) -> Result<Option<i64>, ToolError> {
        match self.0.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) if n.as_i64().is_some() => Ok(n.as_i64()),
            Some(_) => Err(ToolError::Input(format!("{name} must be an integer"))),
        }
    }
}
