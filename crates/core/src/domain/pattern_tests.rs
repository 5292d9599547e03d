//! The OpenAPI patterns and the server's blank checks are one rule: for every character the
//! pattern (compiled as a regex, as schema checkers do) matches exactly when the check accepts.

use super::question::{is_content, PATTERN};
use super::visible::{is_invisible, VISIBLE_PATTERN};

fn agrees(pattern: &str, accepts: impl Fn(char) -> bool) {
    let regex = regex::Regex::new(pattern).unwrap();
    let mut buffer = [0u8; 4];
    for c in (0..=0x10FFFF).filter_map(char::from_u32) {
        assert_eq!(
            regex.is_match(c.encode_utf8(&mut buffer)),
            accepts(c),
            "{pattern} and the server disagree on U+{:04X}",
            c as u32
        );
    }
}

#[test]
fn the_visible_pattern_is_the_servers_blank_check() {
    agrees(VISIBLE_PATTERN, |c| !is_invisible(c));
}

#[test]
fn the_question_pattern_is_the_servers_content_check() {
    agrees(PATTERN, is_content);
}

#[test]
fn characters_regex_engines_disagree_on_are_invisible() {
    for c in [
        '\u{85}', '\u{feff}', '\u{1c}', '\u{a0}', '\u{200b}', '\u{3000}',
    ] {
        assert!(is_invisible(c), "U+{:04X}", c as u32);
    }
}
