#!/usr/bin/env bash
# Installs every tool Leaseline's build and tests need, idempotently: each tool's version is
# checked first and the install skipped when it matches, so on a machine that has everything
# this takes about a second. Everything comes from package registries (crates, Debian, npm)
# through their ordinary clients; nothing is fetched from anywhere else.
#
#   Rust 1.95.0                     checked, not installed: rust-toolchain.toml names it
#   wasm32-unknown-unknown target   rustup
#   rust-src component              rustup (the page's size cuts rebuild std: scripts/cuts.sh)
#   every crate the builds need     cargo fetch: the project's, tools/lab's, tools/size-floor's
#                                   and the standard library's own (for -Zbuild-std)
#   wasm-bindgen-cli 0.2.130        cargo install (gives wasm-bindgen-test-runner too)
#   trunk 0.21.14                   cargo install (0.22 needs a newer rustc)
#   twiggy 0.8.0                    cargo install (the size tier's top code contributors)
#   chromium + chromium-driver      apt, in the background while cargo compiles
#   wasm-opt 132, esbuild 0.25, playwright-core, axe-core   npm (package.json / package-lock.json)
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_BINDGEN_VERSION=0.2.130
TRUNK_VERSION=0.21.14
TWIGGY_VERSION=0.8.0
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

say() { printf 'setup: %s\n' "$*"; }

if ! command -v cargo >/dev/null || ! command -v rustup >/dev/null; then
  say "cargo and rustup are required (a Rust toolchain from rustup)" >&2
  exit 1
fi
source scripts/toolchain.sh

# --- apt, started first because it is network-bound and runs well beside cargo ----------
apt_pid=""
apt_packages=()
[[ -x /usr/bin/chromium && -x /usr/bin/chromedriver ]] || apt_packages+=(chromium chromium-driver)
command -v node >/dev/null && command -v npm >/dev/null || apt_packages+=(nodejs npm)
if ((${#apt_packages[@]})); then
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  mkdir -p target
  apt_log="$PWD/target/setup-apt.log"
  say "installing ${apt_packages[*]} with apt in the background (log: $apt_log)"
  (
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update && $sudo apt-get install -y "${apt_packages[@]}"
  ) >"$apt_log" 2>&1 &
  apt_pid=$!
fi

# --- Rust target and cargo-installed tools ------------------------------------------------
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi
# The standard library's source, which the page's size cuts rebuild with the app
# (scripts/cuts.sh); it comes from the same place as the target.
if ! rustup component list --installed | grep -q '^rust-src'; then
  say "adding the rust-src component"
  rustup component add rust-src
fi

# --- crates ------------------------------------------------------------------------------
# Trunk builds offline (Trunk.toml), and the size cuts rebuild the standard library, whose
# own dependencies (hashbrown, adler2, moto-rt, ...) are in the crate cache only on a
# machine that once fetched them. So every crate any build here needs is fetched now, from
# the lockfiles, for every platform (host and wasm32 both). When all are present the
# offline try succeeds without touching the network.
fetch() {
  cargo fetch --locked --offline --quiet "$@" 2>/dev/null || {
    say "fetching crates for ${*: -1}"
    cargo fetch --locked --quiet "$@"
  }
}
for manifest in Cargo.toml tools/lab/Cargo.toml tools/size-floor/Cargo.toml; do
  fetch --manifest-path "$manifest"
done
# std's workspace manifest uses a cargo feature of its own (profile-rustflags), which only
# a bootstrapping cargo accepts, as -Zbuild-std's does.
RUSTC_BOOTSTRAP=1 fetch --manifest-path "$(rustc --print sysroot)/lib/rustlib/src/rust/library/Cargo.toml"

version_of() { "$1" --version 2>/dev/null | awk '{print $2}' || true; }

if [[ $(version_of wasm-bindgen) != "$WASM_BINDGEN_VERSION" ]] ||
  ! command -v wasm-bindgen-test-runner >/dev/null; then
  # Not --locked: the crate's lockfile pins a webpki-roots release the registry lacks.
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 4 minutes)"
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi

if [[ $(version_of trunk) != "v$TRUNK_VERSION" && $(version_of trunk) != "$TRUNK_VERSION" ]]; then
  # Trunk's own release profile (fat LTO, one codegen unit) doubles the build time for no
  # benefit here; the same binary builds in about 10 minutes with these overrides.
  say "installing trunk $TRUNK_VERSION (about 10 minutes)"
  CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    CARGO_PROFILE_RELEASE_OPT_LEVEL=1 \
    cargo install trunk --version "$TRUNK_VERSION" --locked --force
fi

if [[ $(version_of twiggy) != "$TWIGGY_VERSION" ]]; then
  say "installing twiggy $TWIGGY_VERSION (about 2 minutes)"
  cargo install twiggy --version "$TWIGGY_VERSION" --force
fi

# --- wait for apt --------------------------------------------------------------------------
if [[ -n $apt_pid ]]; then
  if ! wait "$apt_pid"; then
    say "apt-get failed; see $apt_log" >&2
    tail -n 20 "$apt_log" >&2
    exit 1
  fi
  say "apt packages installed"
fi

# --- npm: wasm-opt (binaryen), esbuild and playwright-core --------------------------------------------
npm_wanted() {
  node -e '
    const lock = require("./package-lock.json").packages;
    for (const [path, meta] of Object.entries(lock)) {
      if (!path) continue;
      let have;
      // An optional package is another platform'\''s build (esbuild ships one per platform).
      try { have = require("./" + path + "/package.json").version; } catch { if (meta.optional) continue; process.exit(1); }
      if (have !== meta.version) process.exit(1);
    }' 2>/dev/null
}
if [[ ! -x node_modules/.bin/wasm-opt ]] || ! npm_wanted; then
  say "installing npm packages (binaryen for wasm-opt, esbuild, playwright-core, axe-core)"
  npm ci --no-audit --no-fund
fi

say "ok (wasm-bindgen $(version_of wasm-bindgen), trunk $(version_of trunk), $(wasm-opt --version | awk '{print $1, $3}'), $(/usr/bin/chromium --version 2>/dev/null | awk '{print $1, $2}'))"
