#!/usr/bin/env bash
# ensure-test-deps.sh — what `make test` needs besides the build: wabt
# (wasm2wat, to inspect the builds), Debian's Chromium and a Korean font (the
# browser tests), clang with libFuzzer (the fuzz test), and the npm dev
# dependencies. Installs what is missing when
# run as root on Debian; otherwise says what to install and exits non-zero.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v wasm2wat >/dev/null 2>&1 || need+=(wabt)
[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || need+=(chromium)
[ -d /usr/share/fonts/truetype/nanum ] || need+=(fonts-nanum)
command -v clang >/dev/null 2>&1 || need+=(clang)
# libFuzzer's runtime (the fuzz test)
ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 || need+=(libclang-rt-14-dev)
if [ "${#need[@]}" -gt 0 ]; then
  if [ -r /etc/debian_version ] && [ "$(id -u)" = 0 ]; then
    echo "ensure-test-deps: installing ${need[*]}" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  else
    echo "ensure-test-deps: please install: ${need[*]} (Debian package names)," >&2
    echo "or point CHROMIUM_PATH at a Chromium/Chrome binary." >&2
    exit 1
  fi
fi
tools/ensure-npm-deps.sh
