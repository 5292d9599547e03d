//! The XML reading both SPL readers share (`spl` for sections, `spl_product` for product data):
//! element tests by local name, and an element's text as openFDA's SPL conversion produces it.
//! Knows no SPL element's meaning.

use roxmltree::Node;

/// Every text node under `node`, `<br/>` as a space, whitespace runs collapsed, trimmed.
pub(super) fn section_text(node: Node) -> String {
    let mut raw = String::new();
    for descendant in node.descendants() {
        if descendant.is_text() {
            raw.push_str(descendant.text().unwrap_or_default());
        } else if is(descendant, "br") {
            raw.push(' ');
        }
    }
    collapse_whitespace(&raw)
}

pub(super) fn collapse_whitespace(raw: &str) -> String {
    let mut text = String::with_capacity(raw.len());
    for word in raw.split(char::is_whitespace).filter(|w| !w.is_empty()) {
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(word);
    }
    text
}

pub(super) fn is(node: Node, name: &str) -> bool {
    node.is_element() && node.tag_name().name() == name
}

pub(super) fn child<'a, 'i>(node: Node<'a, 'i>, name: &str) -> Option<Node<'a, 'i>> {
    node.children().find(|n| is(*n, name))
}
