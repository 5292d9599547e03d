// Drug classes whose members carry boxed warnings: how many members, how many conditions.
MATCH (d:Drug)-[:MEMBER_OF]->(k:DrugClass), (d)-[w:WARNING]->(c:Condition)
WHERE w.boxed = true
RETURN k.name AS class, count(DISTINCT d) AS drugs, count(DISTINCT c) AS conditions
ORDER BY drugs DESC, conditions DESC, class;
