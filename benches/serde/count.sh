#!/bin/sh
# Instruction counts (valgrind callgrind) of one typed serde operation per
# format and document: the instructions inside the program's timing loop
# (`run`, N runs) divided by N. Deterministic, unlike timings.
#   benches/serde/count.sh [DATA_DIR]      # or DOCS="canada-map" FORMATS="yac rmp-serde" OPS="ser"
# A DATA_DIR made by benches/docs.sh (target/bench-data, after a run of
# benches/count.sh) adds the string-heavy "countries (String)" and the
# MAP-heavy "emoji". Each "(key order)" document is the one before it with
# its structs under #[keks_macros::key_order], which declares their fields
# in key order (the same YAC bytes, no field moved).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
data=${1:-$here/../../../shared/data}
N=${N:-3}
extra=
[ -f "$data/countries.json" ] && extra="|countries (String)|countries (key order)"
[ -f "$data/emoji.json" ] && extra="$extra|emoji|emoji (key order)"
DOCS=${DOCS:-"canada-list canada-map licenses (String)|licenses (&str)|licenses (key order)$extra"}
FORMATS=${FORMATS:-"yac rmp-serde ciborium serde_json postcard"}
OPS=${OPS:-"ser de"}
(cd "$here" && cargo build --release --quiet)
bin=$here/target/release/yac-serde-bench
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect='yac_serde_bench::run' "$bin" --one "$1" "$2" "$3" "$4" "$data" 2>&1 |
        sed -n 's/.*Collected : *//p'
}
printf '| document | op |'; for f in $FORMATS; do printf ' %s |' "$f"; done; echo
echo "$DOCS" | sed 's/ \(canada\|licenses\)/\n\1/g; s/|/\n/g' | while read -r doc; do
    [ -n "$doc" ] || continue
    for op in $OPS; do
        printf '| %s | %s |' "$doc" "$op"
        for f in $FORMATS; do
            # ciborium cannot borrow &str; postcard has no deserialize_any.
            case "$f/$doc" in
                "ciborium/licenses (&str)" | postcard/canada* | postcard/emoji*) printf ' - |'; continue ;;
            esac
            full=$(count "$doc" "$f" "$op" "$N")
            printf ' %s |' $(( full / N ))
        done
        echo
    done
done
