//! Route handlers: parse into domain values, call the engine off the async threads, shape the
//! spec's success bodies. No business rules here.

pub mod graph;
pub mod health;
pub mod labels;
pub mod quote;
pub mod search;
pub mod verify;
mod wire;
