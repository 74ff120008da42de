#!/usr/bin/env bash
# A noisy neighbour you can summon: what a laptop or a shared CI runner does beside a
# benchmark. It rebuilds pqlab in release mode, over and over, in a folder of its own, one
# build per core, until stopped (Ctrl-C, or `kill` of this script's process group).
# NEIGHBOUR_NICE (default 0) is the builds' niceness: at 0 they take turns on the cores
# with the lab as well as slowing it (a run then takes longer to finish); at 19 the lab
# runs nearly whenever it wants and the builds mostly slow its execution through the
# shared caches and memory.
#
# Why a build: the lab times thread CPU time, so a neighbour that only takes turns on the
# cores changes little (a busy loop on both cores, or a 256 MiB memory stream on the other
# core, moved the sentinel by under 6%). Compilers moving through large working sets on
# every core do slow the lab's own execution: with builds running, the sentinel's rounds
# spread 25% and a third of the reference slices fell in slow periods. See METHODOLOGY.md.
#
#   tools/neighbour.sh &          # then, beside it:
#   PQLAB_RESULTS=results cargo bench
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'kill 0 2>/dev/null; rm -rf "$work"' EXIT INT TERM
cores=$(nproc)
for i in $(seq "$cores"); do
  (
    while :; do
      CARGO_TARGET_DIR="$work/$i" cargo clean --release -p pqlab -p pqlab-queues -q 2>/dev/null || true
      CARGO_TARGET_DIR="$work/$i" nice -n "${NEIGHBOUR_NICE:-0}" cargo build --release -q -p pqlab >/dev/null 2>&1 || sleep 5
    done
  ) &
done
wait
