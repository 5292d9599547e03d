//! `top_k`: how many search results a client asked for, within the spec's 1–100.

use super::count::count_within;
use super::invalid::InvalidInput;

const MIN: i64 = 1;
const MAX: i64 = 100;
const DEFAULT: usize = 10;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TopK(usize);

impl TopK {
    /// `None` (field absent or null) gives the spec's default of 10.
    pub fn parse(requested: Option<i64>) -> Result<Self, InvalidInput> {
        count_within(requested, MAX, DEFAULT)
            .map(Self)
            .ok_or(InvalidInput::TopKOutOfRange { min: MIN, max: MAX })
    }

    pub fn get(self) -> usize {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_and_bounds() {
        assert_eq!(TopK::parse(None).unwrap().get(), 10);
        assert_eq!(TopK::parse(Some(1)).unwrap().get(), 1);
        assert_eq!(TopK::parse(Some(100)).unwrap().get(), 100);
        assert!(TopK::parse(Some(0)).is_err());
        assert!(TopK::parse(Some(101)).is_err());
        assert!(TopK::parse(Some(-5)).is_err());
        assert!(TopK::parse(Some(i64::MAX)).is_err());
    }
}
