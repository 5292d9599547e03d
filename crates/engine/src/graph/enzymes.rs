//! Enzyme and transporter classes as labels name them ("strong CYP3A4 inhibitors", "P-gp
//! inducers", "moderate or strong CYP2C19 inhibitors"), read into canonical class names
//! (`strong cyp3a inhibitors`, `p-gp inducers`) with the members the label itself lists after
//! them ("(e.g., ketoconazole, itraconazole)"). Pure text work, shared by the graph build and
//! question reading; CYP3A4 and CYP3A are one class (labels use both for the same drugs), and
//! "cytochrome P450 3A (CYP3A)" or "cytochrome P450 3A4" is the same enzyme as "CYP3A4".

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::names::list_items;

static ENZYME_CLASS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:(strong|moderate|weak|potent)(?:\s*(?:,|or|and|/|to|and/or)\s*(strong|moderate|weak|potent))?\s+)?(?:cytochrome\s+p-?450\s+(?:\d[a-z]\d{0,2}\s+)?\(\s*)?(cyp\s?-?\d[a-z]\d{0,2}|cytochrome\s+p-?450\s+\d[a-z]\d{0,2}|p-?gp|p-glycoprotein|bcrp|oatp1b1(?:/1b3)?|ugt1a1)\)?(?:\s+(?:enzyme|transporter))?\s+(inhibitors?|inducers?|inhibition|induction)\b",
    )
    .expect("enzyme class pattern")
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
    ENZYME_CLASS
        .captures_iter(text)
        .map(|caps| {
            let whole = caps.get(0).expect("match");
            let enzyme = canonical_enzyme(&caps[3]);
            let role = if caps[4].to_lowercase().starts_with("induc") {
                "inducers"
            } else {
                "inhibitors"
            };
            let strengths: Vec<&str> = [caps.get(1), caps.get(2)]
                .into_iter()
                .flatten()
                .map(|m| canonical_strength(m.as_str()))
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
            for strength in ["strong", "moderate", "weak"] {
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
    ["strong ", "moderate ", "weak "]
        .iter()
        .find_map(|s| name.strip_prefix(s))
        .unwrap_or(name)
}

fn canonical_strength(word: &str) -> &'static str {
    match word.to_lowercase().as_str() {
        "weak" => "weak",
        "moderate" => "moderate",
        _ => "strong",
    }
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
    match lower.as_str() {
        "cyp3a4" | "cyp3a5" => "cyp3a".to_owned(),
        "pgp" | "p-gp" | "p-glycoprotein" => "p-gp".to_owned(),
        _ => lower,
    }
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
