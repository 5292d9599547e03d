//! What a valid key may do and whom it bills, as every check and debit carries it. A value.

use crate::scopes::Scope;

/// What a valid key may do, and whom it bills.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyGrant {
    pub key_id: String,
    pub account_id: String,
    pub scopes: Vec<Scope>,
    /// The account is never charged (its requests are only counted).
    pub unlimited: bool,
}
