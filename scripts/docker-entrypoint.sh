#!/usr/bin/env sh
# The drugcite container of docker-compose.yml: ingests the mounted default corpus (openFDA's
# labels and the common drugs' DailyMed labels, as scripts/run.sh does) into the data volume
# and Neo4j the first time, syncs the live index into Neo4j on later starts (idempotent: an
# emptied or new Neo4j gets the graph again), makes an API key once, then serves from Neo4j.
set -eu

corpus="${DRUGCITE_SHARED_DATA:-/shared/data}/labels/openfda-labels.jsonl.gz"
common="${DRUGCITE_SHARED_DATA:-/shared/data}/labels/dailymed-spl-common.tar.xz"
vocab="${DRUGCITE_SHARED_DATA:-/shared/data}/vocab"
if [ ! -f "$DRUGCITE_DATA_DIR/CURRENT" ]; then
  drugcite ingest --vocab "$vocab" "$corpus" "$common"
else
  drugcite sync-neo4j
fi
key_file="$DRUGCITE_DATA_DIR/local-api-key"
if [ ! -s "$key_file" ]; then
  (umask 077; drugcite keys create --name compose | tail -n 1 > "$key_file")
fi
echo "API key (also in the volume at $key_file): $(cat "$key_file")"
exec drugcite serve --addr 0.0.0.0:8080 --graph-backend neo4j
