#!/usr/bin/env bash
# run_fuzz.sh — runs both libFuzzer drivers, one after the other, for
# SECONDS each: build/native/fuzz_kernels (64-bit) and fuzz_kernels32
# (32-bit, the wasm modules' word size), both built by ./build.sh fuzz, from
# the seeds in tests/c/fuzz_seeds.txt (and CORPUS_DIR when given, which
# keeps what they find). Prints each driver's execution count; exits
# non-zero on any finding (its input is left in build/fuzz-findings/) or if
# a run does not finish.
#
#   tests/c/run_fuzz.sh SECONDS [CORPUS_DIR]
#
# The 32-bit driver runs directly where the kernel runs i386 programs, else
# under qemu-i386 (Debian's qemu-user; tools/ensure-test-deps.sh installs
# it). Under qemu-user, with Debian's qemu 7.2 and clang 14:
#   - LeakSanitizer hangs (its stop-the-world), so leaks are not looked for
#     there; the driver's own check that the kernels' allocations and frees
#     balance after every call remains;
#   - libFuzzer's per-input -timeout is a SIGALRM, and qemu-user corrupts the
#     emulated x87 state when it delivers a signal (glibc's i386 libm computes
#     in x87): false findings; so no -timeout there, and a hang is caught by
#     the deadline of each run instead;
#   - an i386 readdir of an ext4 directory fails (64-bit directory offsets),
#     so the corpus directories live on tmpfs (/dev/shm);
#   - ASan's allocator can fail one of its own checks after a few 10^4 runs,
#     so the run is made of runs of at most a minute, the counts summed.
set -euo pipefail
cd "$(dirname "$0")/../.."

secs=${1:?usage: tests/c/run_fuzz.sh SECONDS [CORPUS_DIR]}
corpus=${2:-}
findings=$PWD/build/fuzz-findings
mkdir -p "$findings"
failed=0

tmp_parent=/dev/shm
[ -d "$tmp_parent" ] && [ -w "$tmp_parent" ] || tmp_parent=${TMPDIR:-/tmp}
work=$(mktemp -d "$tmp_parent/posnorm-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/seeds" "$work/corpus"
while read -r name hex; do
  case "$name" in '' | '#'*) continue ;; esac
  printf "$(printf '%s' "$hex" | sed 's/../\\x&/g')" >"$work/seeds/$name"
done <tests/c/fuzz_seeds.txt
# the corpus both drivers grow, on tmpfs; copied back to CORPUS_DIR at the end
if [ -n "$corpus" ]; then
  mkdir -p "$corpus"
  find "$corpus" -maxdepth 1 -type f -exec cp -t "$work/corpus" {} +
fi

# run NAME SECONDS CHUNK COMMAND...: the driver in runs of at most CHUNK
# seconds until SECONDS have passed; sums their counts
run() {
  local name=$1 total=$2 chunk=$3 log rc=0 runs=0 left n done_now
  shift 3
  log=$(mktemp "$work/log.XXXXXX")
  left=$total
  while [ "$left" -gt 0 ]; do
    n=$((left < chunk ? left : chunk))
    rc=0
    timeout $((n * 2 + 120)) "$@" -max_total_time="$n" -max_len=4096 -print_final_stats=1 \
      -artifact_prefix="$findings/$name-" "$work/corpus" "$work/seeds" >"$log" 2>&1 || rc=$?
    done_now=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    runs=$((runs + ${done_now:-0}))
    [ "$rc" = 0 ] || break
    left=$((left - n))
  done
  if [ "$rc" = 0 ]; then
    echo "$name: $runs executions in $total s ($((runs / total))/s), no finding"
  else
    failed=1
    [ "$rc" = 124 ] && echo "$name: a run did not finish by its deadline (a hang?)"
    echo "$name: FAILED (exit $rc) after $runs executions; the end of its log:"
    tail -n 60 "$log"
  fi
}

run fuzz_kernels-64bit "$secs" "$secs" build/native/fuzz_kernels -timeout=30

bin32=build/native/fuzz_kernels32
if "$bin32" -help=1 >/dev/null 2>&1; then
  run fuzz_kernels-32bit "$secs" "$secs" "$bin32" -timeout=30
elif command -v qemu-i386 >/dev/null 2>&1; then
  echo "($bin32 runs under qemu-i386: this kernel runs no i386 programs)"
  ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
    run fuzz_kernels-32bit "$secs" 60 qemu-i386 "$bin32" -timeout=0 -detect_leaks=0
else
  echo "$bin32 cannot run here: the kernel runs no i386 programs and qemu-i386 is missing (tools/ensure-test-deps.sh)"
  failed=1
fi

[ -z "$corpus" ] || find "$work/corpus" -maxdepth 1 -type f -exec cp -n -t "$corpus" {} +
exit "$failed"
