#!/usr/bin/env bash
# Many small tables in one command against the hand-written reference, on one in-memory Azurite of this run's own:
# seeds TABLES tables of ROWS `tablescan sample` rows, then RUNS times, in turn: `tablescan backup` of all of them
# in one command, the Node copier (bench/node/direct-copy.mjs) over them one after another, and a Node exporter
# writing each to a .jsonl.gz file one after another. Prints each run's wall time and CPU seconds (the command's
# own, and Azurite's), then the medians.
#   bench/many-tables.sh [--tables 100] [--rows 1200] [--runs 3] [--skip-node] [--backup 'LABEL=LAUNCHER [OPTIONS]']...
# Each --backup is a variant of the backup, measured in turn within each run (an A/B: another build's launcher, or
# other options, e.g. --backup 'before=/tmp/old/tablescan' --backup 'now=./tablescan --parallel 4'); default: this
# build's ./tablescan as it is. TABLESCAN_JAVA_OPTS defaults to -Xmx512m.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TABLES=100 ROWS=1200 RUNS=3 NODE=1 VARIANTS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --tables) TABLES="$2"; shift 2 ;;
    --rows) ROWS="$2"; shift 2 ;;
    --runs) RUNS="$2"; shift 2 ;;
    --skip-node) NODE=0; shift ;;
    --backup) VARIANTS+=("$2"); shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
if [ ${#VARIANTS[@]} -eq 0 ]; then VARIANTS=("tablescan backup=$HERE/tablescan"); fi
export TABLESCAN_JAVA_OPTS="${TABLESCAN_JAVA_OPTS:--Xmx512m}"
WORK="$(mktemp -d /tmp/tablescan-many-tables-XXXXXX)"
AZURITE_PID=""
cleanup() { if [ -n "$AZURITE_PID" ]; then kill "$AZURITE_PID" 2>/dev/null || true; fi; rm -rf "$WORK"; }
trap cleanup EXIT

PORT="$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
node "$HERE/tools/azurite/node_modules/azurite/dist/src/table/main.js" --tableHost 127.0.0.1 --tablePort "$PORT" \
    --inMemoryPersistence --skipApiVersionCheck --disableProductStyleUrl --disableTelemetry --silent \
    >"$WORK/azurite.log" 2>&1 &
AZURITE_PID=$!
deadline=$((SECONDS + 60))
until curl -s -o /dev/null "http://127.0.0.1:$PORT/"; do
  if [ $SECONDS -ge $deadline ]; then echo "Azurite did not start; its log:" >&2; cat "$WORK/azurite.log" >&2; exit 1; fi
  sleep 0.2
done
# Azurite's well-known development account (its documented key, not a secret).
CS="DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;TableEndpoint=http://127.0.0.1:$PORT/devstoreaccount1;"
export TABLES_CONNECTION_STRING="$CS" TABLESCAN_ACCOUNT_BENCH_CONNECTION_STRING="$CS"

echo "seeding $TABLES tables of $ROWS rows (many001...) on Azurite at 127.0.0.1:$PORT"
"$HERE/tablescan" sample --account bench --table seedsource --rows "$ROWS" >/dev/null
node "$HERE/bench/node/many-tables.mjs" seed seedsource many "$TABLES"

azurite_cpu() { awk '{ printf "%.2f", ($14 + $15) / 100 }' "/proc/$AZURITE_PID/stat"; }
# measure NAME RUN COMMAND...: one timed run, a line in results.tsv (name, run, wall s, CPU s, Azurite CPU s).
measure() {
  local name="$1" run="$2"; shift 2
  local before; before="$(azurite_cpu)"
  if ! /usr/bin/time -f '%e %U %S' -o "$WORK/time" "$@" >"$WORK/out" 2>&1; then
    echo "$name failed:" >&2; tail -20 "$WORK/out" >&2; exit 1
  fi
  local after; after="$(azurite_cpu)"
  read -r wall user sys <"$WORK/time"
  local cpu; cpu="$(echo "$user + $sys" | bc)"
  local az; az="$(echo "$after - $before" | bc)"
  printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$run" "$wall" "$cpu" "$az" >>"$WORK/results.tsv"
  printf '  run %s %-40s %7.2f s wall %7.2f CPU-s (Azurite %.2f CPU-s)\n' "$run" "$name" "$wall" "$cpu" "$az"
}

for run in $(seq 1 "$RUNS"); do
  for variant in "${VARIANTS[@]}"; do
    read -r -a command <<<"${variant#*=}"
    measure "${variant%%=*}" "$run" "${command[0]}" backup --source-account bench --table-pattern 'many*' \
        --to "$WORK/sets" "${command[@]:1}"
    grep -E '^backup set .* (complete|NOT complete)' "$WORK/out" | sed 's/^/    /'
    rm -rf "$WORK/sets"
  done
  if [ "$NODE" = 0 ]; then continue; fi
  measure "node copier, one table after another" "$run" node "$HERE/bench/node/many-tables.mjs" copy many "$TABLES" nodecopy
  node "$HERE/bench/node/many-tables.mjs" drop nodecopymany "$TABLES" >/dev/null
  measure "node exporter, one table after another" "$run" node "$HERE/bench/node/many-tables.mjs" export many "$TABLES" "$WORK/nodeexport"
  rm -rf "$WORK/nodeexport"
done

echo "medians of $RUNS runs ($TABLES tables of $ROWS rows):"
cut -f1 "$WORK/results.tsv" | awk '!seen[$0]++' | while IFS= read -r name; do
  median() { awk -F'\t' -v n="$name" -v c="$1" '$1 == n { print $c }' "$WORK/results.tsv" | sort -n \
      | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
  printf '  %-40s %7.2f s wall %7.2f CPU-s (Azurite %.2f CPU-s)\n' "$name" "$(median 3)" "$(median 4)" "$(median 5)"
done
