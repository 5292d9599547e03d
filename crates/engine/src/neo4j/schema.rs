//! `cypher/schema.cypher`, compiled in and applied statement by statement; an index that
//! already exists counts as applied. Creates indexes only, never drops anything.

use super::{Neo4jClient, Neo4jError};

const SCHEMA: &str = include_str!("../../../../cypher/schema.cypher");

/// The schema's statements: `//` comment lines dropped, split on `;`.
pub fn schema_statements() -> Vec<String> {
    let code: String = SCHEMA
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .map(|line| format!("{line}\n"))
        .collect();
    code.split(';')
        .map(str::trim)
        .filter(|statement| !statement.is_empty())
        .map(str::to_owned)
        .collect()
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SchemaReport {
    pub created: usize,
    pub existing: usize,
}

impl Neo4jClient {
    /// Creates the schema's indexes; those already there are counted, not errors.
    pub fn apply_schema(&self) -> Result<SchemaReport, Neo4jError> {
        let mut report = SchemaReport::default();
        for statement in schema_statements() {
            match self.run(neo4rs::query(&statement)) {
                Ok(()) => report.created += 1,
                Err(error) if error.is_already_exists() => report.existing += 1,
                Err(error) => return Err(error),
            }
        }
        Ok(report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_are_unnamed_index_creations_without_comments() {
        let statements = schema_statements();
        assert!(statements.len() >= 10, "{statements:?}");
        for statement in &statements {
            assert!(statement.starts_with("CREATE INDEX FOR (n:"), "{statement}");
            assert!(!statement.contains("//") && !statement.contains(';'));
        }
    }
}
