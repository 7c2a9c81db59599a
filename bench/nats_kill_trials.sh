#!/bin/sh
# Issue 17's fault proof at full size: TRIALS (default 20) SIGKILLs of an unbounded NATS -> window -> NATS run at random
# moments while EVENTS (default 100 000) events are published, then a caught-up run; the output stream must hold
# exactly the oracle's panes, each once (tests/python/test_nats.py, the kill-trial test, which runs 3 trials of 5 000
# in the suite). With `checkpoint` as the fourth argument the killed runs and the last one run with --checkpoint
# (tests/python/test_nats_checkpoint.py: acknowledged per durable checkpoint, restarts resuming from it).
# Usage: bench/nats_kill_trials.sh [TRIALS] [EVENTS] [SEED] [checkpoint]   (RECFLOW_BIN picks the binary)
set -eu
cd "$(dirname "$0")/.."
tests=tests/python/test_nats.py
[ "${4:-}" = checkpoint ] && tests=tests/python/test_nats_checkpoint.py
RECFLOW_NATS_KILL_TRIALS="${1:-20}" RECFLOW_NATS_KILL_EVENTS="${2:-100000}" RECFLOW_NATS_KILL_SEED="${3:-41}" \
  exec /usr/bin/python3 -m pytest -q -p no:cacheprovider "$tests" -k random_moments
