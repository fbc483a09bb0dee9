# Two commands for people:
#   make serve   install what is missing, then serve the app at http://127.0.0.1:8080/
#   make test    install what is missing, then run every check, in order, stopping at the
#                first failure: format, lints, native tests, browser tests, release build,
#                sub-path build, end-to-end tests, frame benchmark, explore benchmark in the
#                browser (one worker's schedules/s, every lesson at K = 2, frames meanwhile),
#                first-paint benchmark
#                (Slow 4G, beside RaftScope's page), bundle size (fails above
#                a ceiling on the first load, scripts/size.sh), simulation and explore
#                benchmarks, the lab's conformance (scripts/lab.sh --check: the eight lab
#                scenarios on a real Redis, etcd, PostgreSQL and ZooKeeper, fails on "differ"; where the packages
#                cannot be installed it prints "lab: SKIPPED — …" with the reason); then
#                `tiers: N passed, M failed` (also printed when a tier fails).
# Two optional, longer checks (not part of `make test`):
#   make fuzz    every parser a user can reach (scenario JSON, the link fragment, the embed
#                host message) fed 1,000,000 generated inputs each (LEASELINE_FUZZ_N to
#                change it): no panic, every refusal names its field; a count per parser
#                at the end; then explore's long sweeps (tests/it/explore_sweep.rs, ignored
#                by `cargo test`): every lesson fenced, two added faults.
#   make mutants plants ten known bugs in the core, one at a time, in a scratch copy
#                (scripts/mutants.sh), runs `cargo test --no-default-features` on each and
#                says which test binary caught it; ends with `caught N / planted M`.
#   make lab     the lab scenarios against a real Redis, etcd and ZooKeeper, some with their
#                storage in a real PostgreSQL (scripts/lab.sh), each real run checked by the
#                core's checker beside the model's run: per scenario both verdicts, every key
#                event's time difference beside its tolerance (the noise the run measured, +
#                etcd's 500 ms expiry scan or ZooKeeper's tick where it applies), the ±50 ms
#                target, and "agree" or "differ". Writes the traces to target/lab/.
# And one for publishing:
#   make dist    install what is missing, then build the page as it ships into dist/, with
#                its size cuts (scripts/cuts.sh); `make dist PUBLIC_URL=/locks/leaseline/`
#                for a site's sub-path (docs/embedding.md, "Quick start").
# The other targets are helpers for those.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := test

# Tools installed by scripts/setup.sh: cargo-installed binaries, and wasm-opt from npm.
export PATH := $(CURDIR)/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)
export CHROMEDRIVER := /usr/bin/chromedriver

STEP := scripts/step.sh

.PHONY: serve test dist fuzz mutants lab setup

setup:
	@scripts/setup.sh

serve: setup
	@echo "Leaseline: http://127.0.0.1:8080/"
	@scripts/cuts.sh trunk serve

dist: setup
	@scripts/cuts.sh trunk build --release $(if $(PUBLIC_URL),--public-url $(PUBLIC_URL))
	@echo "dist/ is the page, ready to publish$(if $(PUBLIC_URL), under $(PUBLIC_URL))"

test: setup
	@rm -f target/.tiers-passed target/.tiers-failed
	@$(STEP) "format" cargo fmt --check
	@$(STEP) "clippy (web)" cargo clippy --all-targets -- -D warnings
	@$(STEP) "clippy (core only)" cargo clippy --all-targets --no-default-features -- -D warnings
	@$(STEP) "clippy (first load, links' player and workers, wasm32)" sh -c '\
		cargo clippy --target wasm32-unknown-unknown --bin leaseline-lite --no-default-features --features lite -- -D warnings && \
		cargo clippy --target wasm32-unknown-unknown --bin leaseline-player --no-default-features --features player -- -D warnings && \
		cargo clippy --target wasm32-unknown-unknown --bin leaseline-explore --no-default-features --features worker -- -D warnings && \
		cargo clippy --target wasm32-unknown-unknown --bin leaseline-record --no-default-features --features worker -- -D warnings'
	@$(STEP) "native tests (web)" cargo test
	@$(STEP) "native tests (core only)" cargo test --no-default-features
	@$(STEP) "native tests (first load's build of the library)" \
		cargo test --no-default-features --features lite --lib
	@$(STEP) "native tests (links' player's build of the library)" \
		cargo test --no-default-features --features player --lib
	@$(STEP) "browser tests (wasm32, headless Chromium)" \
		cargo test --target wasm32-unknown-unknown --test wasm
	@$(STEP) "release build (trunk)" scripts/cuts.sh trunk build --release
	@$(STEP) "sub-path build (trunk --public-url)" \
		scripts/cuts.sh trunk build --release --public-url /courses/locks/ --dist target/dist-subpath
	@$(STEP) "end-to-end (node --test, playwright-core)" node --test tests/e2e/
	@$(STEP) "frame benchmark" node tests/e2e/bench-frames.mjs
	@$(STEP) "explore benchmark (worker rate, every lesson, frames meanwhile)" node tests/e2e/bench-explore.mjs
	@$(STEP) "first-paint benchmark (Slow 4G, beside RaftScope)" node tests/e2e/bench-first-paint.mjs
	@$(STEP) "bundle size" scripts/size.sh
	@$(STEP) "benchmark" sh -c 'cargo bench --bench sim --no-default-features && cargo bench --bench explore --no-default-features'
	@$(STEP) "lab conformance (real Redis, etcd, PostgreSQL and ZooKeeper)" scripts/lab.sh --check
	@$(STEP) --summary

# tests/it/fuzz.rs at 1,000,000 inputs per parser (`cargo test` runs it at 100,000 /
# 100,000 / 20,000), in the test profile (opt-level 2); the summary lines are repeated last.
fuzz:
	@start=$$(date +%s); log=$$(mktemp); trap 'rm -f "$$log"' EXIT; \
	LEASELINE_FUZZ_N=$${LEASELINE_FUZZ_N:-1000000} \
		cargo test --no-default-features --test it -- fuzz:: --nocapture 2>&1 | tee "$$log"; \
	cargo test --no-default-features --test it -- explore_sweep:: --ignored --nocapture 2>&1 | tee -a "$$log"; \
	echo; grep '^fuzz: .* inputs, ' "$$log"; grep '^explore sweep' "$$log"; \
	echo "fuzz: done in $$(($$(date +%s) - start))s"

# Ten planted bugs, each in a scratch copy of the repository (target/mutants-tree, removed
# afterwards; its build in target/mutants is kept for the next run). Bug numbers pick a
# few: `make mutants MUTANTS="3 7"`.
mutants:
	@scripts/mutants.sh $(MUTANTS)

lab:
	@scripts/lab.sh
