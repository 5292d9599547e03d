//! Enzyme and transporter classes as labels name them ("strong CYP3A4 inhibitors", "P-gp
//! inducers", "moderate or strong CYP2C19 inhibitors"), read into canonical class names
//! (`strong cyp3a inhibitors`, `p-gp inducers`) with the members the label itself lists after
//! them ("(e.g., ketoconazole, itraconazole)"). Pure text work, shared by the graph build and
//! question reading; CYP3A4 and CYP3A are one class (labels use both for the same drugs), and
//! "cytochrome P450 3A (CYP3A)" or "cytochrome P450 3A4" is the same enzyme as "CYP3A4". The
//! strengths, enzymes and roles are `enzyme-classes.tsv`; the pattern's grammar is here.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::names::list_items;
use crate::tables::graph as tables;

/// The slots of the class pattern and what their spellings read as (`enzyme-classes.tsv`).
struct Parts {
    /// A strength, an enzyme and a role as labels write them ("potent CYP3A4 inhibition").
    class: Regex,
    /// Each strength and role spelling (anchored) and what it reads as, in file order.
    strengths: Vec<(Regex, String)>,
    roles: Vec<(Regex, String)>,
    /// A written enzyme (lowercase, no spaces) → the one enzyme it is.
    same_enzyme: HashMap<String, String>,
    /// What the strengths read as, without repeats, in file order ("strong", "moderate", "weak").
    strength_names: Vec<String>,
}

static PARTS: LazyLock<Parts> = LazyLock::new(|| {
    let table = tables::ENZYME_CLASSES.rows();
    let (part, pattern, reads_as) = (
        table.column("part"),
        table.column("pattern"),
        table.column("reads_as"),
    );
    let rows = |name: &str| -> Vec<(String, String)> {
        let rows = table.rows().iter().filter(|row| row.cell(part) == name);
        rows.map(|row| (row.cell(pattern).to_owned(), row.cell(reads_as).to_owned()))
            .collect()
    };
    let alternation = |rows: &[(String, String)]| -> String {
        let patterns: Vec<&str> = rows.iter().map(|(p, _)| p.as_str()).collect();
        patterns.join("|")
    };
    let anchored = |rows: Vec<(String, String)>| -> Vec<(Regex, String)> {
        rows.into_iter()
            .map(|(p, reads_as)| {
                let whole = Regex::new(&format!("(?i)^(?:{p})$")).expect("enzyme spelling");
                (whole, reads_as)
            })
            .collect()
    };
    let (strengths, enzymes, roles) = (rows("strength"), rows("enzyme"), rows("role"));
    let (s, e, r) = (
        alternation(&strengths),
        alternation(&enzymes),
        alternation(&roles),
    );
    let class = format!(
        r"(?i)\b(?:({s})(?:\s*(?:,|or|and|/|to|and/or)\s*({s}))?\s+)?(?:cytochrome\s+p-?450\s+(?:\d[a-z]\d{{0,2}}\s+)?\(\s*)?({e})\)?(?:\s+(?:enzyme|transporter))?\s+({r})\b"
    );
    let mut strength_names: Vec<String> = Vec::new();
    for (_, name) in &strengths {
        if !strength_names.contains(name) {
            strength_names.push(name.clone());
        }
    }
    Parts {
        class: Regex::new(&class).expect("enzyme class pattern"),
        strengths: anchored(strengths),
        roles: anchored(roles),
        same_enzyme: rows("same-enzyme").into_iter().collect(),
        strength_names,
    }
});
static FOLLOWING_LIST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^\s*,?\s*(?:\(\s*(?:e\.g\.,?|eg,|such as|including)\s*([^()]{3,300})\)|(?:such as|including)\s+([^.;:()]{3,300}))")
        .expect("following list pattern")
});

/// An enzyme class named in a text: where, its canonical names (one per strength named) and
/// the members listed right after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnzymeClass {
    pub span: Range<usize>,
    pub names: Vec<String>,
    pub members: Vec<String>,
}

/// Every enzyme or transporter class `text` names, in text order.
pub fn enzyme_classes(text: &str) -> Vec<EnzymeClass> {
    PARTS
        .class
        .captures_iter(text)
        .map(|caps| {
            let whole = caps.get(0).expect("match");
            let enzyme = canonical_enzyme(&caps[3]);
            let role = reading(&PARTS.roles, &caps[4]);
            let strengths: Vec<&str> = [caps.get(1), caps.get(2)]
                .into_iter()
                .flatten()
                .map(|m| reading(&PARTS.strengths, m.as_str()))
                .collect();
            let names = if strengths.is_empty() {
                vec![format!("{enzyme} {role}")]
            } else {
                strengths
                    .iter()
                    .map(|s| format!("{s} {enzyme} {role}"))
                    .collect()
            };
            let members = FOLLOWING_LIST
                .captures(&text[whole.end()..])
                .and_then(|c| c.get(1).or(c.get(2)))
                .map(|list| list_items(list.as_str()))
                .unwrap_or_default();
            EnzymeClass {
                span: whole.range(),
                names,
                members,
            }
        })
        .collect()
}

/// The class names a question's enzyme phrase stands for: the named strength and the class
/// without strength (a label's "CYP3A inhibitors" covers the strong ones), or every strength
/// when none is named.
pub fn question_class_names(class: &EnzymeClass) -> Vec<String> {
    let mut names = Vec::new();
    for name in &class.names {
        let bare = strip_strength(name);
        if name == bare {
            for strength in &PARTS.strength_names {
                names.push(format!("{strength} {bare}"));
            }
        }
        names.push(name.clone());
        names.push(bare.to_owned());
    }
    names.dedup();
    names
}

/// A class name without its leading strength ("strong cyp3a inhibitors" → "cyp3a inhibitors").
pub fn strip_strength(name: &str) -> &str {
    PARTS
        .strength_names
        .iter()
        .find_map(|s| name.strip_prefix(s.as_str())?.strip_prefix(' '))
        .unwrap_or(name)
}

/// What a matched strength or role reads as: the reading of the first spelling it is.
fn reading<'a>(spellings: &'a [(Regex, String)], written: &str) -> &'a str {
    spellings
        .iter()
        .find(|(spelling, _)| spelling.is_match(written))
        .map(|(_, reads_as)| reads_as.as_str())
        .expect("a matched slot is one of its spellings")
}

fn canonical_enzyme(word: &str) -> String {
    let lower: String = word
        .to_lowercase()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let lower = lower
        .replace("cyp-", "cyp")
        .replace("cytochromep-450", "cyp")
        .replace("cytochromep450", "cyp");
    PARTS.same_enzyme.get(&lower).cloned().unwrap_or(lower)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strengths_enzymes_and_listed_members_are_read() {
        let found = enzyme_classes(
            "Avoid moderate or strong CYP3A4 inhibitors (e.g., ketoconazole, itraconazole) and \
             P-glycoprotein inducers such as rifampin.",
        );
        assert_eq!(
            found[0].names,
            ["moderate cyp3a inhibitors", "strong cyp3a inhibitors"]
        );
        assert_eq!(found[0].members, ["ketoconazole", "itraconazole"]);
        assert_eq!(found[1].names, ["p-gp inducers"]);
        assert_eq!(found[1].members, ["rifampin"]);
    }

    #[test]
    fn the_spelled_out_cytochrome_names_the_same_class() {
        let alprazolam = enzyme_classes(
            "taking strong cytochrome P450 3A (CYP3A) inhibitors (e.g., ketoconazole, \
             itraconazole), except ritonavir",
        );
        assert_eq!(alprazolam[0].names, ["strong cyp3a inhibitors"]);
        assert_eq!(alprazolam[0].members, ["ketoconazole", "itraconazole"]);
        let triazolam =
            enzyme_classes("strong cytochrome P450 (CYP 3A) enzyme inhibitors (e.g., nefazodone)");
        assert_eq!(triazolam[0].names, ["strong cyp3a inhibitors"]);
        let bare = enzyme_classes("potent cytochrome P450 3A4 inhibitors");
        assert_eq!(bare[0].names, ["strong cyp3a inhibitors"]);
    }

    #[test]
    fn a_question_without_strength_covers_every_strength() {
        let asked = &enzyme_classes("Which drugs interact with CYP2C19 inhibitors?")[0];
        let names = question_class_names(asked);
        assert!(names.contains(&"strong cyp2c19 inhibitors".to_owned()));
        assert!(names.contains(&"cyp2c19 inhibitors".to_owned()));
        let strong = &enzyme_classes("strong CYP3A inhibitors")[0];
        assert_eq!(
            question_class_names(strong),
            ["strong cyp3a inhibitors", "cyp3a inhibitors"]
        );
    }
}
