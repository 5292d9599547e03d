//! Which characters are visible: the one rule a free-text field's "not blank" check and its
//! JSON Schema pattern share. Knows no field.

/// What a free-text field other than the question (a quote, a filter) must contain somewhere,
/// as a JSON Schema pattern: a character that is not `is_invisible`. The class is spelled out
/// rather than written `\S`, whose meaning differs between regex engines (ECMA counts U+FEFF as
/// space, Python and Rust U+0085), so every schema checker and the server agree on what is blank.
pub const VISIBLE_PATTERN: &str =
    r"[^\x00-\x20\x7f-\xa0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]";

/// The characters nobody can see: Unicode controls and white space, U+200B and U+FEFF.
pub fn is_invisible(c: char) -> bool {
    c.is_control() || c.is_whitespace() || matches!(c, '\u{200b}' | '\u{feff}')
}
