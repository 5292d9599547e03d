//! How accounts are opened and billed: the operator account, the price of each endpoint, the
//! starting credit, whether sign-up is open. Values; charging them is `credit` and `meter`.

use crate::scopes::Scope;
use crate::values::Credit;

/// The account CLI keys belong to: unlimited credit, no password (it cannot log in).
pub const OPERATOR_EMAIL: &str = "operator@drugcite.invalid";

/// Price of one request to each endpoint.
#[derive(Clone, Copy, Debug)]
pub struct Prices {
    pub search: Credit,
    pub verify: Credit,
    pub graph: Credit,
}

impl Prices {
    pub fn of(&self, scope: Scope) -> Credit {
        match scope {
            Scope::Search => self.search,
            Scope::Verify => self.verify,
            Scope::Graph => self.graph,
        }
    }
}

/// How accounts are opened and billed.
#[derive(Clone, Copy, Debug)]
pub struct Policy {
    /// Credit a new account starts with (default USD 5.00).
    pub starting_credit: Credit,
    pub prices: Prices,
    /// Whether anyone may sign up in the console; otherwise only the operator's CLI makes accounts.
    pub open_signup: bool,
}

impl Default for Policy {
    fn default() -> Self {
        Self {
            starting_credit: Credit::from_micros(5_000_000),
            prices: Prices {
                search: Credit::from_micros(5_000),
                verify: Credit::ZERO,
                graph: Credit::from_micros(5_000),
            },
            open_signup: true,
        }
    }
}
