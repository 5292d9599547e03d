// drugcite graph schema for Neo4j 5 (and the CI engine): indexes only, applied by `drugcite
// ingest --neo4j` and `drugcite serve --graph-backend neo4j` at start; an index that already
// exists is not an error. No constraints: the sync relies on MERGE (see README "Neo4j").
CREATE INDEX FOR (n:Drug) ON (n.id);
CREATE INDEX FOR (n:Drug) ON (n.name);
CREATE INDEX FOR (n:DrugClass) ON (n.id);
CREATE INDEX FOR (n:DrugClass) ON (n.name);
CREATE INDEX FOR (n:Condition) ON (n.id);
CREATE INDEX FOR (n:Condition) ON (n.name);
CREATE INDEX FOR (n:Population) ON (n.id);
CREATE INDEX FOR (n:Population) ON (n.name);
CREATE INDEX FOR (n:Label) ON (n.label_id);
CREATE INDEX FOR (n:Label) ON (n.set_id);
CREATE INDEX FOR (n:Section) ON (n.id);
CREATE INDEX FOR (n:Segment) ON (n.fingerprint);
CREATE INDEX FOR (n:Segment) ON (n.text_hash);
CREATE INDEX FOR (n:Segment) ON (n.block0);
CREATE INDEX FOR (n:Segment) ON (n.block1);
CREATE INDEX FOR (n:Segment) ON (n.block2);
CREATE INDEX FOR (n:Segment) ON (n.block3);
CREATE INDEX FOR (n:Segment) ON (n.block4);
CREATE INDEX FOR (n:Segment) ON (n.block5);
CREATE INDEX FOR (n:Segment) ON (n.block6);
CREATE INDEX FOR (n:Segment) ON (n.block7);
