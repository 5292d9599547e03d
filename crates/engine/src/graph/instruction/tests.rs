//! Unit tests of the instructions read from interaction text (`instruction.rs`).

use super::*;

fn named(name: &str) -> Vec<String> {
    vec![name.to_owned()]
}

#[test]
fn instructions_are_read_strongest_first() {
    assert_eq!(
        instruction("Coadministration with pimozide is contraindicated; monitor ECG."),
        Some(Instruction::Contraindicated)
    );
    assert_eq!(
        instruction("Avoid concomitant use with strong CYP3A4 inhibitors."),
        Some(Instruction::Avoid)
    );
    assert_eq!(
        instruction("Reduce the dose of digoxin by half."),
        Some(Instruction::AdjustDose)
    );
    assert_eq!(
        instruction("Monitor INR when starting celecoxib."),
        Some(Instruction::Monitor)
    );
    assert_eq!(
        instruction("Lithium generally should not be given with diuretics."),
        Some(Instruction::Avoid)
    );
    assert_eq!(instruction("Levels increase."), None);
}

#[test]
fn an_example_list_keeps_its_sentence_instruction() {
    let text = "Avoid concomitant use of ELIQUIS with combined P-gp and strong CYP3A4 \
                inducers (e.g., rifampin, carbamazepine). Other text.";
    assert_eq!(
        instruction_about(text, &named("rifampin")),
        Some(Instruction::Avoid)
    );
}

#[test]
fn a_table_row_names_its_partner_and_its_intervention_says_what_to_do() {
    // celecoxib, Table 3 (openFDA text of the row and the start of the next).
    let text = "Lithium Clinical Impact: NSAIDs have produced elevations in plasma lithium levels \
                and reductions in renal lithium clearance. The mean minimum lithium concentration \
                increased 15%. Intervention: During concomitant use of celecoxib capsules and \
                lithium, monitor patients for signs of lithium toxicity. Methotrexate Clinical \
                Impact: Concomitant use of NSAIDs and methotrexate may increase the risk. \
                Intervention: Avoid use in patients on high-dose methotrexate.";
    assert_eq!(
        instruction_about(text, &named("lithium")),
        Some(Instruction::Monitor)
    );
    let examples = "Other Serotonergic Drugs Clinical Impact: The concomitant use of serotonergic \
                    drugs increases the risk of serotonin syndrome. Intervention: Monitor patients \
                    for signs and symptoms of serotonin syndrome. Examples: other SSRIs, SNRIs, \
                    triptans, opioids, lithium, buspirone.";
    assert_eq!(
        instruction_about(examples, &named("buspirone")),
        Some(Instruction::Monitor),
        "a row's Examples are its partners"
    );
}

#[test]
fn a_listed_partner_takes_the_instruction_given_for_its_group() {
    // sertraline, Warnings and Precautions 5.2.
    let text = "The risk is increased with concomitant use of other serotonergic drugs \
                (including triptans, tricyclic antidepressants, fentanyl, lithium, tramadol) and \
                with drugs that impair metabolism of serotonin. Serotonin syndrome can also occur \
                when these drugs are used alone. If concomitant use of sertraline with other \
                serotonergic drugs is clinically warranted, inform patients of the increased \
                risk for serotonin syndrome and monitor for symptoms.";
    assert_eq!(
        instruction_about(text, &named("tramadol")),
        Some(Instruction::Monitor)
    );
    let generic = "Use with other drugs (including aspirin) was studied. Monitor other drugs.";
    assert_eq!(
        instruction_about(generic, &named("aspirin")),
        None,
        "\"other drugs\" is no group"
    );
}

#[test]
fn stopping_around_the_other_is_withholding_unless_it_waits_for_symptoms() {
    // metformin, Warnings and Precautions 5.1.
    assert_eq!(
        instruction(
            "Stop metformin hydrochloride tablets at the time of, or prior to, an iodinated \
             contrast imaging procedure in patients with an eGFR between 30 and 60."
        ),
        Some(Instruction::Withhold)
    );
    assert_eq!(
        instruction("Discontinue sertraline and serotonergic agents immediately if the above symptoms occur."),
        None
    );
    assert_eq!(
        instruction("If serotonin syndrome occurs, consider discontinuation of escitalopram."),
        None
    );
}

#[test]
fn a_class_is_found_by_any_of_its_terms_not_by_the_drug_s_other_sentences() {
    // Spironolactone's Drug Interactions 7.1: the ACE inhibitor sentence asks for monitoring;
    // the "discontinue" is about potassium supplements.
    let text = "Concomitant administration of spironolactone with potassium supplementation or \
        drugs that can increase potassium may lead to severe hyperkalemia. In general, \
        discontinue potassium supplementation in heart failure patients who start \
        spironolactone. Check serum potassium levels when ACE inhibitor or ARB therapy is \
        altered in patients receiving spironolactone.";
    let class = vec![
        "angiotensin converting enzyme inhibitor".to_owned(),
        "ace inhibitor".to_owned(),
    ];
    assert_eq!(instruction_about(text, &class), Some(Instruction::Monitor));
    assert_eq!(
        instruction_about(text, &named("potassium")),
        Some(Instruction::Withhold)
    );
    assert_eq!(
        instruction_about(text, &named("arb")),
        Some(Instruction::Monitor)
    );
    assert_eq!(
        instruction_about("Carbamazepine: avoid.", &named("arb")),
        None,
        "names match whole words only"
    );
}

#[test]
fn an_enzyme_class_is_found_however_the_label_spells_it() {
    let text = "If treatment with a CYP3A4 inhibitor is unavoidable, suspend simvastatin during \
        the course of strong CYP3A4 inhibitor treatment.";
    assert_eq!(
        instruction_about(text, &named("cyp3a inhibitors")),
        Some(Instruction::Withhold)
    );
    assert_eq!(instruction_about(text, &named("cyp2d6 inhibitors")), None);
}

#[test]
fn a_highlights_item_s_instruction_is_not_the_next_item_s() {
    // Escitalopram's Highlights: items run together without full stops.
    let text = "Discontinuation syndrome: When discontinuing escitalopram, reduce dosage \
        gradually whenever possible ( 5.3 ) Increased risk of bleeding: Concomitant use with \
        NSAIDs may increase the risk ( 5.5 ) Seizures: Use with caution ( 5.4 )";
    assert_eq!(instruction_about(text, &named("nsaid")), None);
    assert_eq!(
        instruction_about(text, &named("escitalopram")),
        Some(Instruction::AdjustDose)
    );
    assert_eq!(
        highlight_items(text)[1],
        "Increased risk of bleeding: Concomitant use with NSAIDs may increase the risk ( 5.5 ) "
    );
}

#[test]
fn a_cross_reference_is_not_an_instruction() {
    let text = "The risk is increased with tramadol and with MAOIs [See Contraindications ( 4 ), \
        Drug Interactions ( 7.1 )] .";
    assert_eq!(instruction(text), None);
    assert_eq!(
        instruction("Use with MAOIs is contraindicated (see Contraindications (4))."),
        Some(Instruction::Contraindicated)
    );
    assert_eq!(
        instruction("Bleeding may occur (see Warnings and Precautions (5.2))."),
        None
    );
}
