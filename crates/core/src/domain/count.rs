//! A client's requested count checked against its range, with the default when absent: the
//! rule `top_k`, `max_hops` and `limit` share. Knows none of them.

/// `requested` if it lies in `1..=max`, `default` if absent; `None` if out of range.
pub(super) fn count_within(requested: Option<i64>, max: i64, default: usize) -> Option<usize> {
    match requested {
        None => Some(default),
        Some(n) if (1..=max).contains(&n) => Some(n as usize),
        Some(_) => None,
    }
}
