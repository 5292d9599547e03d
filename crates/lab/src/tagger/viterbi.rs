//! BIO-constrained decoding: the most probable tag sequence of one mention type under the rule
//! that I follows only B or I. Scores in, tags out; no model, no text.

use super::mentions::{I, O};

/// The best valid O/B/I sequence for per-word log-probabilities `[O, B, I]`.
pub fn decode(scores: &[[f32; 3]]) -> Vec<u8> {
    if scores.is_empty() {
        return Vec::new();
    }
    let allowed = |from: usize, to: usize| !(to == I as usize && from == O as usize);
    let mut best = [scores[0][0], scores[0][1], f32::NEG_INFINITY];
    let mut back: Vec<[u8; 3]> = vec![[0; 3]];
    for word in &scores[1..] {
        let mut next = [f32::NEG_INFINITY; 3];
        let mut from = [0u8; 3];
        for to in 0..3 {
            for (prev, &before) in best.iter().enumerate() {
                let s = before + word[to];
                if allowed(prev, to) && s > next[to] {
                    next[to] = s;
                    from[to] = prev as u8;
                }
            }
        }
        best = next;
        back.push(from);
    }
    let mut state = (0..3)
        .max_by(|&a, &b| best[a].total_cmp(&best[b]))
        .unwrap_or(0) as u8;
    let mut tags = vec![O; scores.len()];
    for at in (0..scores.len()).rev() {
        tags[at] = state;
        state = back[at][state as usize];
    }
    tags
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tagger::mentions::B;

    #[test]
    fn an_i_after_o_is_never_decoded() {
        let ln = |p: f32| p.ln();
        // Word 2 prefers I, but word 1 prefers O: the best valid path makes word 1 B or word 2 B.
        let scores = [
            [ln(0.6), ln(0.3), ln(0.1)],
            [ln(0.2), ln(0.1), ln(0.7)],
            [ln(0.9), ln(0.05), ln(0.05)],
        ];
        let tags = decode(&scores);
        assert_eq!(tags, [B, I, O]);
        assert_eq!(
            decode(&[[ln(0.1), ln(0.2), ln(0.7)]]),
            [B],
            "I cannot start"
        );
    }
}
