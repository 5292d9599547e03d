//! Unit tests of the instructions read from interaction text (`instruction.rs`).

use super::*;

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
        instruction_about(text, "rifampin"),
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
        instruction_about(text, "lithium"),
        Some(Instruction::Monitor)
    );
    let examples = "Other Serotonergic Drugs Clinical Impact: The concomitant use of serotonergic \
                    drugs increases the risk of serotonin syndrome. Intervention: Monitor patients \
                    for signs and symptoms of serotonin syndrome. Examples: other SSRIs, SNRIs, \
                    triptans, opioids, lithium, buspirone.";
    assert_eq!(
        instruction_about(examples, "buspirone"),
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
        instruction_about(text, "tramadol"),
        Some(Instruction::Monitor)
    );
    let generic = "Use with other drugs (including aspirin) was studied. Monitor other drugs.";
    assert_eq!(
        instruction_about(generic, "aspirin"),
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
