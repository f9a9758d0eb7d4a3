#!/usr/bin/env bash
# The staging kernels (global -> cp.async -> shared -> ldmatrix) under ncu, swizzled and not:
# `tilecheck run --profile` at a ragged and a large size for each, predicted against measured on
# every counter (docs/efficiency.md, "ldmatrix / stmatrix").  GPU machine, after
# `source .gpu/setup-on-device.sh`.  The unswizzled files are the refuted example (and the bf16 one
# with its swizzle removed) without their `expect` line: banks is then reported, not blocking, so
# the kernel is emitted and measured.  Usage: bench/ncu/staging_profile.sh [OUTFILE]
set -u
out=${1:-/dev/stdout}
tmp=$(mktemp -d)
sed '/^expect = /d' examples/staging_unswizzled_banks_refuted.toml > "$tmp/fp16_unswizzled.toml"
sed -e '/^expect = /d' -e 's/layout = "Sw<3,3,3> o /layout = "/' examples/staging_bf16_x4_trans.toml > "$tmp/bf16_unswizzled.toml"
fp="--set m=45 --set k=72 --set r0=32 --set c0=0|--set m=1000 --set k=1000 --set r0=960 --set c0=960"
bf="--set k=45 --set n=72 --set r0=32 --set c0=0|--set k=1000 --set n=1000 --set r0=960 --set c0=960"
{
  for f in examples/staging_fp16_x4.toml "$tmp/fp16_unswizzled.toml" examples/staging_bf16_x4_trans.toml "$tmp/bf16_unswizzled.toml"; do
    case $f in *bf16*) sets=$bf ;; *) sets=$fp ;; esac
    IFS='|' read -r -a sizes <<< "$sets"
    for s in "${sizes[@]}"; do
      echo "=== $(basename "$f") $s"
      python3 -m tilecheck run "$f" $s --seed 1 --profile 2>&1 | grep -v '^    [a-z]* *proved'
    done
  done
} > "$out"
grep -c "predicted == measured on every counter" "$out" | sed 's/^/profiles equal on every counter: /'
