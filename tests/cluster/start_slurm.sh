#!/usr/bin/env bash
# Start a real single-node SLURM on this machine, for the cluster test
# (tests/cluster/test_slurm_profile.py).  Needs root and Debian's packages:
#   apt-get install --no-install-recommends munge slurmctld slurmd slurm-client
# (installed here when missing and apt-get is available).  The daemons are
# started directly (package installs do not start services in containers);
# their PIDs go to $SLURM_TEST_STATE/pids so that stop_slurm.sh ends exactly
# those processes.  Exit status 3: SLURM cannot be installed or started here
# (no root, no package access) -- the caller skips with the message printed.
set -euo pipefail

STATE=${SLURM_TEST_STATE:-/tmp/tensegrity-slurm}
TIMEOUT=${SLURM_START_TIMEOUT:-60}
cannot() { echo "start_slurm: $*" >&2; exit 3; }

[ "$(id -u)" -eq 0 ] || cannot "needs root to install and run the SLURM daemons"
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null \
    || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
    command -v apt-get >/dev/null || cannot "SLURM is not installed and apt-get is not available"
    export DEBIAN_FRONTEND=noninteractive
    { apt-get update -qq && apt-get install -y -qq --no-install-recommends \
        munge slurmctld slurmd slurm-client; } >"$STATE.apt.log" 2>&1 \
        || cannot "apt-get install of munge/slurm failed (see $STATE.apt.log)"
fi

mkdir -p "$STATE"
if sinfo -h -N -o '%T' 2>/dev/null | grep -qx idle; then
    # started before (by this script with another state directory, or by the
    # host): use it, and leave its daemons to whoever started them
    echo "start_slurm: a SLURM node is already up and idle; using it"
    exit 0
fi

HOST=$(hostname -s)
CPUS=$(nproc)
MEM_MB=$(awk '/MemTotal/ {printf "%d", $2 / 1024 * 0.9}' /proc/meminfo)

# munge: a key, writable runtime directories, the daemon
install -d -o munge -g munge -m 0700 /etc/munge /var/lib/munge /var/log/munge
install -d -o munge -g munge -m 0755 /run/munge
if [ ! -s /etc/munge/munge.key ]; then
    dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key status=none
    chown munge:munge /etc/munge/munge.key
    chmod 0400 /etc/munge/munge.key
fi
runuser -u munge -- /usr/sbin/munged
pgrep -u munge -n munged >"$STATE/pids"
munge -n | unmunge >/dev/null || cannot "munge does not authenticate"

# a one-node slurm.conf for this host
install -d /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
cat >/etc/slurm/slurm.conf <<CONF
# Written by tests/cluster/start_slurm.sh: one node, this host.
ClusterName=tensegrity-test
SlurmctldHost=$HOST(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
ReturnToService=2
# finished jobs stay visible to squeue this long (s): at least 3x the
# profile's slurm-init-seconds-before-status-checks, and longer than a whole
# test run, which checks them all at the end
MinJobAge=3600
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$CPUS RealMemory=$MEM_MB State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF

/usr/sbin/slurmctld
/usr/sbin/slurmd
for _ in $(seq "$TIMEOUT"); do
    state=$(sinfo -h -N -o '%T' 2>/dev/null | head -1 || true)
    [ "$state" = "idle" ] && break
    sleep 1
done
cat /run/slurmctld.pid /run/slurmd.pid >>"$STATE/pids" 2>/dev/null || true
[ "${state:-}" = "idle" ] || cannot "node not idle after ${TIMEOUT}s (state '${state:-none}'; see /var/log/slurm/)"
echo "start_slurm: node $HOST idle ($CPUS CPUs, ${MEM_MB} MB); daemons $(tr '\n' ' ' <"$STATE/pids")"
