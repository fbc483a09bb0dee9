#!/usr/bin/env bash
# Runs a command (a Trunk or cargo build of the page's wasm) with the size cuts the shipped
# page is built with:
#   scripts/cuts.sh trunk build --release
#
# The cuts, as measured on the first load's build (leaseline-lite, wasm + glue, gzip -9,
# after wasm-opt -Oz) when they were chosen; `make test`'s size tier prints today's figures:
#
#   as before                                             182,443 bytes
#   + the standard library rebuilt with the app (LTO
#     across std, opt-level "z": -Zbuild-std)             179,153  (-3,290)
#   + panics abort at once, with no message formatted
#     (-Cpanic=immediate-abort)                           164,173  (-14,980)
#   + std's smaller variants of its algorithms
#     (the optimize_for_size feature)                     158,671  (-5,502)
#
# Most of it is the panic machinery: with `panic = "abort"` a panic still formats its
# message (and every `Debug` it names) before aborting; here it traps at once. The price: a
# panic in the shipped page shows in the console as "unreachable executed", without its
# message. `cargo test` (native and wasm32) builds without the cuts, so a failing test
# still says why.
#
# These are unstable flags on a stable toolchain: RUSTC_BOOTSTRAP=1 lets it accept them, and
# scripts/toolchain.sh refuses any compiler but the one rust-toolchain.toml names (1.95.0),
# the one they were measured on. std's own crates come from the crate cache, which
# scripts/setup.sh fills (Trunk builds offline). They are scoped to this script: `make serve`, the release builds of `make test` and the size
# tier's floors go through it; a plain `trunk build` still works, only heavier. Needs the
# rust-src component (scripts/setup.sh adds it). The results do not depend on the cuts:
# std's small variants change how it sorts, not what (the core sorts only with stable sorts
# or on whole values), and the e2e tests run on the build made with them.
set -euo pipefail
source "$(dirname "$0")/toolchain.sh"
export RUSTC_BOOTSTRAP=1
export CARGO_UNSTABLE_BUILD_STD=std,panic_abort
export CARGO_UNSTABLE_BUILD_STD_FEATURES=optimize_for_size
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort"
exec "$@"
