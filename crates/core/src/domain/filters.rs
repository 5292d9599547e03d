//! Optional search filters beside the spec's fields: drug (generic or brand name), section
//! (human name or openFDA key) and route. Each, when given, is a non-blank string.

use super::invalid::InvalidInput;
use super::visible::is_invisible;

const MAX_FILTER_CHARS: usize = 200;

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SearchFilters {
    /// Lowercase.
    pub drug: Option<String>,
    /// Lowercase, spaces as underscores: compared with section keys and names alike.
    pub section: Option<String>,
    /// Uppercase.
    pub route: Option<String>,
}

impl SearchFilters {
    pub fn parse(
        drug: Option<String>,
        section: Option<String>,
        route: Option<String>,
    ) -> Result<Self, InvalidInput> {
        let clean = |field: &'static str,
                     value: Option<String>|
         -> Result<Option<String>, InvalidInput> {
            match value {
                None => Ok(None),
                Some(v) if v.chars().all(is_invisible) || v.chars().count() > MAX_FILTER_CHARS => {
                    Err(InvalidInput::Filter {
                        field,
                        max: MAX_FILTER_CHARS,
                    })
                }
                Some(v) => Ok(Some(v.trim_matches(is_invisible).to_owned())),
            }
        };
        Ok(Self {
            drug: clean("drug", drug)?.map(|d| d.to_lowercase()),
            section: clean("section", section)?.map(|s| s.to_lowercase().replace([' ', '-'], "_")),
            route: clean("route", route)?.map(|r| r.to_uppercase()),
        })
    }

    pub fn is_empty(&self) -> bool {
        self.drug.is_none() && self.section.is_none() && self.route.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_are_normalised_and_blank_ones_refused() {
        let f = SearchFilters::parse(
            Some(" Zoloft ".into()),
            Some("Drug Interactions".into()),
            Some("oral".into()),
        )
        .unwrap();
        assert_eq!(f.drug.as_deref(), Some("zoloft"));
        assert_eq!(f.section.as_deref(), Some("drug_interactions"));
        assert_eq!(f.route.as_deref(), Some("ORAL"));
        assert!(SearchFilters::parse(None, None, None).unwrap().is_empty());
        assert!(SearchFilters::parse(Some("  ".into()), None, None).is_err());
        assert!(SearchFilters::parse(Some("\u{1f} ".into()), None, None).is_err());
        assert!(SearchFilters::parse(Some("\u{85}\u{feff}".into()), None, None).is_err());
        assert!(SearchFilters::parse(None, Some("x".repeat(201)), None).is_err());
    }
}
