//! `max_hops` and `limit` of a graph question, within 1–3 and 1–100.

use super::count::count_within;
use super::invalid::InvalidInput;

const MAX_HOPS: i64 = 3;
const DEFAULT_HOPS: usize = 2;
const MAX_LIMIT: i64 = 100;
const DEFAULT_LIMIT: usize = 25;

/// How many steps a reasoning chain may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MaxHops(usize);

impl MaxHops {
    /// `None` gives the default of 2 (a class's members and their relationships).
    pub fn parse(requested: Option<i64>) -> Result<Self, InvalidInput> {
        count_within(requested, MAX_HOPS, DEFAULT_HOPS)
            .map(Self)
            .ok_or(InvalidInput::MaxHopsOutOfRange { max: MAX_HOPS })
    }

    pub fn get(self) -> usize {
        self.0
    }
}

/// How many relationships an answer lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GraphLimit(usize);

impl GraphLimit {
    /// `None` gives the default of 25.
    pub fn parse(requested: Option<i64>) -> Result<Self, InvalidInput> {
        count_within(requested, MAX_LIMIT, DEFAULT_LIMIT)
            .map(Self)
            .ok_or(InvalidInput::LimitOutOfRange { max: MAX_LIMIT })
    }

    pub fn get(self) -> usize {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_bounds() {
        assert_eq!(MaxHops::parse(None).unwrap().get(), 2);
        assert_eq!(MaxHops::parse(Some(3)).unwrap().get(), 3);
        assert!(MaxHops::parse(Some(0)).is_err());
        assert!(MaxHops::parse(Some(4)).is_err());
        assert_eq!(GraphLimit::parse(None).unwrap().get(), 25);
        assert_eq!(GraphLimit::parse(Some(100)).unwrap().get(), 100);
        assert!(GraphLimit::parse(Some(0)).is_err());
        assert!(GraphLimit::parse(Some(101)).is_err());
    }
}
