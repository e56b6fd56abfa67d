#!/usr/bin/env bash
# Prints the slowest test classes of the last run, from the surefire and failsafe reports under the checkout, with the
# CPU each integration test class cost where it was recorded (integration-tests/target/class-cpu, see ClassCpu).
#   bin/slowest-tests.sh [N]   (N classes, 25 by default)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
N="${1:-25}"
mapfile -t reports < <(find "$HERE" -path "$HERE/tools" -prune -o \
    \( -path '*/target/surefire-reports/TEST-*.xml' -o -path '*/target/failsafe-reports/TEST-*.xml' \) -print)
[ "${#reports[@]}" -gt 0 ] || { echo "no test reports under $HERE (run ./tablescan test first)"; exit 0; }
cpu_file=$(mktemp); trap 'rm -f "$cpu_file"' EXIT
find "$HERE" -path "$HERE/tools" -prune -o -path '*/target/class-cpu/*.tsv' -print0 | xargs -0 -r cat > "$cpu_file"
# The first line of a report's <testsuite ...> holds the class's name and its time in seconds.
for f in "${reports[@]}"; do
  head -c 4096 "$f" | tr '\n' ' ' | grep -o '<testsuite [^>]*>' | head -1 \
    | sed -E 's/.* name="([^"]*)".* time="([^"]*)".*/\2 \1/; t; s/.* time="([^"]*)".* name="([^"]*)".*/\1 \2/'
done | sed 's/,//g' | sort -rn | awk -v n="$N" -v cpus="$cpu_file" '
  BEGIN { while ((getline line < cpus) > 0) { split(line, f, "\t"); cpu[f[2]] += f[1]; if (f[2] !~ /\$/) cputotal += f[1] } }
  { total += $1
    if (NR <= n) lines[NR] = sprintf("%8.1f s %s  %s", $1, ($2 in cpu) ? sprintf("%7.1f CPU-s", cpu[$2]) : "           ", $2) }
  END { printf "slowest %d of %d test classes (%.0f s in all, summed over forks", (NR < n ? NR : n), NR, total
        if (cputotal > 0) printf "; integration tests %.0f CPU-s with their processes", cputotal
        print "):"
        for (i = 1; i <= (NR < n ? NR : n); i++) print lines[i] }'
