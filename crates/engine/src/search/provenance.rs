//! Where search's fitted files come from (`ranking-weights.json`, `section-prototypes.json`):
//! each fit that wrote one — its date, the lab script, the values it set and the question files
//! of its fit part — and the checks a file must pass to be used. Reads and fits nothing.

use serde::de::DeserializeOwned;
use serde::Deserialize;

/// One fit of a file, as the lab script writes it.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub(crate) struct Fit {
    /// The day of the fit (UTC), `YYYY-MM-DD`.
    pub(crate) date: String,
    /// The lab script that fitted, from the repository root.
    pub(crate) script: String,
    /// The values it set (the ranking weights; empty for a file fitted whole).
    #[serde(default)]
    pub(crate) fitted: Vec<String>,
    pub(crate) dataset: Dataset,
}

/// The questions a fit learned from.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub(crate) struct Dataset {
    /// Always `fit`: the held-out part is never fitted on.
    pub(crate) part: String,
    /// The question files of the rows, in order.
    pub(crate) files: Vec<String>,
    /// How many of their fit questions the fit used.
    pub(crate) questions: u32,
}

impl Fit {
    /// Whether this is a dated fit of `script` on the fit part of some questions.
    pub(crate) fn check(&self, script: &str) -> Result<(), String> {
        if self.script != script {
            return Err(format!("fitted by {}, not by {script}", self.script));
        }
        if !is_date(&self.date) {
            return Err(format!("fit date {:?} is not YYYY-MM-DD", self.date));
        }
        let data = &self.dataset;
        if data.part != "fit" {
            return Err(format!(
                "fitted on the {} part, not the fit part",
                data.part
            ));
        }
        if data.files.is_empty() || data.questions == 0 {
            return Err("the fit names no question files or no questions".to_owned());
        }
        Ok(())
    }
}

/// Checks the fits of a file of named values: at least one, each a fit of `script`, and every
/// value in `names` set by one of them.
pub(crate) fn check_fits<'a>(
    fits: &[Fit],
    script: &str,
    names: impl IntoIterator<Item = &'a str>,
) -> Result<(), String> {
    if fits.is_empty() {
        return Err("no fit is named".to_owned());
    }
    fits.iter().try_for_each(|fit| fit.check(script))?;
    let fitted = |name: &str| fits.iter().any(|fit| fit.fitted.iter().any(|f| f == name));
    match names.into_iter().find(|name| !fitted(name)) {
        Some(name) => Err(format!("{name} was set by no fit")),
        None => Ok(()),
    }
}

/// The values of a fitted JSON object whose `provenance` lists the fits of `script` that set
/// every other member of it.
pub(crate) fn fitted_values<T: DeserializeOwned>(json: &str, script: &str) -> Result<T, String> {
    #[derive(Deserialize)]
    struct Fitted {
        provenance: Vec<Fit>,
    }
    let value: serde_json::Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
    let fitted = Fitted::deserialize(&value).map_err(|e| e.to_string())?;
    let members = value.as_object().into_iter().flat_map(|o| o.keys());
    let names = members.map(String::as_str).filter(|k| *k != "provenance");
    check_fits(&fitted.provenance, script, names)?;
    T::deserialize(value).map_err(|e| e.to_string())
}

fn is_date(date: &str) -> bool {
    let bytes = date.as_bytes();
    bytes.len() == 10
        && bytes.iter().enumerate().all(|(at, b)| match at {
            4 | 7 => *b == b'-',
            _ => b.is_ascii_digit(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fit(fitted: &[&str]) -> Fit {
        Fit {
            date: "2026-12-02".into(),
            script: "crates/lab/scripts/fit-ranking.py".into(),
            fitted: fitted.iter().map(|f| f.to_string()).collect(),
            dataset: Dataset {
                part: "fit".into(),
                files: vec!["dev-questions.jsonl".into()],
                questions: 25,
            },
        }
    }

    #[test]
    fn every_value_must_be_set_by_a_dated_fit_of_the_script_on_the_fit_part() {
        let script = "crates/lab/scripts/fit-ranking.py";
        let fits = [fit(&["semantic"]), fit(&["other_form"])];
        assert_eq!(
            check_fits(&fits, script, ["semantic", "other_form"]),
            Ok(())
        );
        let unset = check_fits(&fits, script, ["semantic", "names_effect"]);
        assert_eq!(unset, Err("names_effect was set by no fit".to_owned()));
        assert!(check_fits(&[], script, []).is_err());
        assert!(check_fits(&fits, "scripts/other.py", []).is_err());
        let mut held = fit(&[]);
        held.dataset.part = "held".into();
        assert!(held.check(script).is_err());
        let mut undated = fit(&[]);
        undated.date = "2 Dec 2026".into();
        assert!(undated.check(script).is_err());
    }

    #[test]
    fn a_fitted_file_is_read_only_when_its_fits_name_every_value() {
        type Values = std::collections::BTreeMap<String, serde_json::Value>;
        let script = "crates/lab/scripts/fit-ranking.py";
        let fits = serde_json::json!([{"date": "2026-12-02", "script": script,
            "fitted": ["semantic"], "dataset": {"part": "fit", "files": ["a.jsonl"], "questions": 3}}]);
        let file = serde_json::json!({"semantic": 0.75, "provenance": fits});
        let read: Values = fitted_values(&file.to_string(), script).unwrap();
        assert_eq!(read["semantic"], 0.75);
        let mut unfitted = file.clone();
        unfitted["new_weight"] = serde_json::json!(0.5);
        let refused = fitted_values::<Values>(&unfitted.to_string(), script);
        assert_eq!(refused, Err("new_weight was set by no fit".to_owned()));
        let bare = serde_json::json!({"semantic": 0.75});
        assert!(
            fitted_values::<Values>(&bare.to_string(), script).is_err(),
            "no provenance"
        );
    }
}
