//! The lab's `severity-agreement` command: how the graph's severity and negation rules agree
//! with the brat annotations on a part of the files, curated words alone and with the learned
//! cues, and (`--learn`) rewriting the cue table from the fit part. Thin: `drugcite_engine::graph`.

use std::path::Path;

use crate::agreement::{cases, measure, Agreement};
use crate::brat::read_dir;
use crate::cue_learning::learn;
use crate::eval::Part;
use anyhow::Context;
use drugcite_engine::graph::cues::Cues;

/// Prints the agreement on `part` of the annotated files in `dir`.
pub fn agreement(dir: &Path, part: Part) -> anyhow::Result<()> {
    let documents = read_dir(dir)?;
    let cases = cases(&documents, part);
    let files = documents
        .iter()
        .filter(|d| crate::agreement::in_part(part, &d.label))
        .count();
    println!(
        "{part:?} part: {files} files, {} annotated reactions",
        cases.len()
    );
    println!("rules     negation P/R/F1    severe P/R/F1      moderate P/R/F1    mild P/R/F1        grade agreement");
    for (name, cues) in [("curated", &Cues::none()), ("learned", Cues::learned())] {
        println!("{name:<9} {}", row(&measure(&cases, cues)));
    }
    Ok(())
}

fn row(a: &Agreement) -> String {
    let prf = |c: &crate::extractor_learning::Counts| {
        format!("{:.3}/{:.3}/{:.3}", c.precision(), c.recall(), c.f1())
    };
    format!(
        "{:<18} {:<18} {:<18} {:<18} {:.3} ({} of {})",
        prf(&a.negation),
        prf(&a.grades[2]),
        prf(&a.grades[1]),
        prf(&a.grades[0]),
        a.grade_agreement(),
        a.same_grade,
        a.both_graded
    )
}

/// Learns the cue table from the fit part of `dir` and writes it to `out`.
pub fn learn_cues(dir: &Path, out: &Path) -> anyhow::Result<()> {
    let documents = read_dir(dir)?;
    let cues = learn(&cases(&documents, Part::Fit));
    let json = serde_json::to_string_pretty(&cues)? + "\n";
    std::fs::write(out, json).with_context(|| format!("writing {}", out.display()))?;
    println!(
        "{} severity cues, {} negation cues before, {} after, negation reach {} → {}",
        cues.severity.len(),
        cues.negation_before.len(),
        cues.negation_after.len(),
        cues.negation_reach,
        out.display()
    );
    Ok(())
}
