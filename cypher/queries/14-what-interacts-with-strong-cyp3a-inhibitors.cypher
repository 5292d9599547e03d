// What interacts with strong CYP3A inhibitors: the drugs whose labels state an interaction or a
// contraindication with the enzyme class (CYP3A4 and CYP3A are one class; other classes:
// "moderate cyp3a inhibitors", "strong cyp3a inducers", "p-gp inhibitors", "cyp2c19 inhibitors"),
// by how many segments state it. The class's members, as the labels list them, are
// `(m:Drug)-[:MEMBER_OF]->(k)`; `m.unlabelled` marks those without a label of their own.
// Parameters: $enzyme_class (lowercase, e.g. "strong cyp3a inhibitors").
MATCH (d:Drug)-[r:INTERACTION|CONTRAINDICATION]->(k:DrugClass {name: $enzyme_class})
RETURN d.name AS drug, type(r) AS relation, size(r.evidence) AS segments
ORDER BY drug, relation;
