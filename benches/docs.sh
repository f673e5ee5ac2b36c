# Sourced by benches/run.sh and benches/count.sh: the benchmark documents.
#
# In:  $root (the checkout), $target (cargo's target dir), $data (the shared
#      data directory: licenses, canada-list, canada-map).
# Out: $data set to $target/bench-data, which links the shared documents and
#      adds two generated ones, and $docs, the five document names:
#   countries  world-countries 5.1.0 (npm, MIT): 250 country records with
#              their names in ~25 languages; string-heavy, a third of the
#              string bytes non-ASCII (Arabic, CJK, Cyrillic, ...).
#   emoji      emoji-datasource 16.0.0 (npm, MIT): 1911 emoji records of ~22
#              keys each, nested MAPs of skin variations; MAP-heavy, ASCII.
# The sources are fetched once with `npm pack` into $target/bench-src and
# checked against the sha256 sums below; benches/make_docs.py turns them into
# float-free .json, .mp, .yac and counts.json. Nothing of it is committed.

bench_src="$target/bench-src"
bench_data="$target/bench-data"
# name  npm package  file in the package  sha256 of that file
bench_sources="countries world-countries@5.1.0 package/dist/countries.json c9a7f9a41e038943f0011e93867a07aae7eb4a092311d84ae428cd1b4717f1e6
emoji emoji-datasource@16.0.0 package/emoji.json 1d602e65be88772bf8cc368ce16b855d719eeddbafe128d471b80203f494d29f"

bench_fetch() { # name package file sha256 -> $bench_src/name.json
    local name="$1" pkg="$2" file="$3" sum="$4" tmp
    if [ -f "$bench_src/$name.json" ]; then return; fi
    command -v npm >/dev/null || { echo "benches: npm is needed to fetch $pkg" >&2; exit 2; }
    mkdir -p "$bench_src"
    tmp="$(mktemp -d "$bench_src/fetch.XXXXXX")"
    (cd "$tmp" && npm pack --silent "$pkg" >/dev/null && tar xzf ./*.tgz "$file")
    if ! echo "$sum  $tmp/$file" | sha256sum -c --quiet -; then
        echo "benches: $pkg's $file is not the expected file" >&2
        exit 2
    fi
    mv "$tmp/$file" "$bench_src/$name.json"
    rm -rf "$tmp"
}

bench_specs=()
while read -r name pkg file sum; do
    bench_fetch "$name" "$pkg" "$file" "$sum"
    bench_specs+=("$name=$bench_src/$name.json")
done <<<"$bench_sources"
if [ ! -f "$bench_data/counts.json" ] || [ "$root/benches/make_docs.py" -nt "$bench_data/counts.json" ] ||
    [ "$data/counts.json" -nt "$bench_data/counts.json" ]; then
    python3 "$root/benches/make_docs.py" "$data" "$bench_data" "${bench_specs[@]}"
fi
data="$bench_data"
docs="licenses canada-list canada-map countries emoji"
