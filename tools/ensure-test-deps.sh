#!/usr/bin/env bash
# ensure-test-deps.sh — what `make test` needs besides the build: wabt
# (wasm2wat, to inspect the builds), Debian's Chromium and a Korean font (the
# browser tests), clang with libFuzzer, 64-bit and 32-bit, and qemu-user
# where the kernel runs no i386 programs (the fuzz tests), hugo and jekyll
# (tests/blog_generators.test.mjs builds a site with each), and the npm dev
# dependencies. Installs what is missing when
# run as root on Debian; otherwise says what to install and exits non-zero.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v wasm2wat >/dev/null 2>&1 || need+=(wabt)
[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || need+=(chromium)
[ -d /usr/share/fonts/truetype/nanum ] || need+=(fonts-nanum)
command -v clang >/dev/null 2>&1 || need+=(clang)
# the static site generators the shipped Hugo shortcode and Jekyll include are built with
command -v hugo >/dev/null 2>&1 || need+=(hugo)
command -v jekyll >/dev/null 2>&1 || need+=(jekyll)
# libFuzzer's runtime (the fuzz test), x86_64 and i386 (one package)
ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 || need+=(libclang-rt-14-dev)
ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-i386.a >/dev/null 2>&1 || need+=(libclang-rt-14-dev)
# the 32-bit fuzzer (clang -m32): the i386 C library, libgcc and libstdc++
# (libFuzzer is C++)
[ -e /usr/lib32/crt1.o ] || need+=(libc6-dev-i386)
ls /usr/lib/gcc/x86_64-linux-gnu/*/32/libgcc.a >/dev/null 2>&1 || need+=(lib32gcc-12-dev)
ls /usr/lib/gcc/x86_64-linux-gnu/*/32/libstdc++.so >/dev/null 2>&1 || need+=(lib32stdc++-12-dev)

install() {
  [ "$#" -gt 0 ] || return 0
  if [ -r /etc/debian_version ] && [ "$(id -u)" = 0 ]; then
    echo "ensure-test-deps: installing $*" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
  else
    echo "ensure-test-deps: please install: $* (Debian package names)," >&2
    echo "or point CHROMIUM_PATH at a Chromium/Chrome binary." >&2
    exit 1
  fi
}
install ${need[@]+"${need[@]}"}

# A kernel without ia32 emulation runs i386 programs only under qemu-user
# (tests/c/run_fuzz.sh then runs the 32-bit fuzzer with it): try one.
if ! command -v qemu-i386 >/dev/null 2>&1; then
  probe=$(mktemp -d)
  printf 'int main(void) { return 0; }\n' >"$probe/probe.c"
  if clang -m32 "$probe/probe.c" -o "$probe/probe" && ! "$probe/probe" 2>/dev/null; then
    rm -rf "$probe"
    install qemu-user
  fi
  rm -rf "$probe"
fi
tools/ensure-npm-deps.sh
