#!/usr/bin/env bash
# Sourced by scripts/setup.sh and scripts/cuts.sh: refuses, in one line, a Rust toolchain
# other than the one rust-toolchain.toml names. The size cuts pass unstable flags to rustc
# (-Zbuild-std, -Cpanic=immediate-abort) whose names and effect can change from one release
# to the next; on another compiler they would fail with a compiler error, or build a page
# whose size nobody measured. rustc runs in the repository, where rust-toolchain.toml
# applies, whatever the caller's directory.
toolchain_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
toolchain_want=$(sed -n 's/^channel = "\(.*\)"$/\1/p' "$toolchain_root/rust-toolchain.toml")
toolchain_have=$(cd "$toolchain_root" && rustc --version 2>/dev/null | awk '{print $2}')
if [[ $toolchain_have != "$toolchain_want" ]]; then
  printf 'leaseline: needs Rust %s (rust-toolchain.toml), found %s: run `rustup toolchain install %s --component rust-src --target wasm32-unknown-unknown`, or unset RUSTUP_TOOLCHAIN if it overrides the file\n' \
    "$toolchain_want" "${toolchain_have:-no rustc}" "$toolchain_want" >&2
  exit 1
fi
