#!/usr/bin/env bash
# Stop the daemons started by start_slurm.sh (exactly the PIDs it recorded).
set -uo pipefail
STATE=${SLURM_TEST_STATE:-/tmp/tensegrity-slurm}
[ -s "$STATE/pids" ] || { echo "stop_slurm: nothing recorded in $STATE/pids"; exit 0; }
pids=$(tr '\n' ' ' <"$STATE/pids")
# shellcheck disable=SC2086
kill $pids 2>/dev/null
for _ in $(seq 20); do
    alive=0
    for p in $pids; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ "$alive" -eq 0 ] && break
    sleep 0.5
done
# shellcheck disable=SC2086
[ "$alive" -eq 0 ] || kill -9 $pids 2>/dev/null
rm -f "$STATE/pids"
echo "stop_slurm: stopped $pids"
