// The members of a drug class and how many interactions each member's labels state.
// Parameters: $class (lowercase class name, e.g. "serotonin reuptake inhibitor").
MATCH (d:Drug)-[:MEMBER_OF]->(k:DrugClass {name: $class})
OPTIONAL MATCH (d)-[i:INTERACTION]->(other)
RETURN d.name AS drug, count(i) AS interactions
ORDER BY interactions DESC, drug;
