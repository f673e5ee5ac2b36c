# Builds mpack (the benchmark peer in ../shared/peers/mpack, MIT; never
# part of libyac) into $target/bench/mpack/*.o, as its README says. Sourced
# by benches/run.sh and benches/count.sh, which set $root and $target;
# sets $mpack_dir (the sources, for -I) and $mpack_objs.
mpack_dir="${MPACK_DIR:-$root/../shared/peers/mpack}"
if [ ! -f "$mpack_dir/mpack.h" ]; then
    echo "benches: no mpack sources in $mpack_dir (set MPACK_DIR)" >&2
    exit 2
fi
mkdir -p "$target/bench/mpack"
mpack_objs=()
for src in "$mpack_dir"/*.c; do
    obj="$target/bench/mpack/$(basename "${src%.c}").o"
    ${CC:-cc} -O2 -std=c11 -w -c "$src" -o "$obj"
    mpack_objs+=("$obj")
done
