# A one-node Slurm cluster on this machine for the launcher's test (source it): munged with its
# own key and socket, slurmctld and slurmd on 127.0.0.1 at free ports, every file in one folder,
# no cgroups, no accounting - Debian's slurmctld, slurmd, slurm-client and munge, nothing else.
#   slurm_start DIR   starts it, exports SLURM_CONF; 1 with the reason in SLURM_WHY when it cannot
#   slurm_stop        stops it (also what a trap on EXIT should call)
# The daemons run as the user running the test (root in CI); jobs run as that user too.

slurm_start() {
  SLURM_DIR=$1 SLURM_WHY=
  local b
  for b in munged slurmctld slurmd srun scontrol sinfo squeue; do
    command -v "$b" >/dev/null || { SLURM_WHY="$b is not installed (Debian packages slurmctld slurmd slurm-client munge)"; return 1; }
  done
  mkdir -p "$SLURM_DIR/state" "$SLURM_DIR/spool" && chmod 700 "$SLURM_DIR"
  head -c 1024 /dev/urandom >"$SLURM_DIR/munge.key" && chmod 600 "$SLURM_DIR/munge.key"
  if ! munged --force --key-file="$SLURM_DIR/munge.key" --socket="$SLURM_DIR/munge.sock" --pid-file="$SLURM_DIR/munged.pid" \
    --log-file="$SLURM_DIR/munged.log" --seed-file="$SLURM_DIR/munged.seed" 2>"$SLURM_DIR/munged.err"; then
    SLURM_WHY="munged did not start: $(tail -n 1 "$SLURM_DIR/munged.err")"
    return 1
  fi
  local user port cpus mem
  user=$(id -un)
  port=$((20000 + RANDOM % 20000))
  cpus=$(nproc)
  mem=$(($(awk '/MemTotal/ { print $2 }' /proc/meminfo) / 2048))
  export SLURM_CONF="$SLURM_DIR/slurm.conf"
  cat >"$SLURM_CONF" <<CONF
ClusterName=fathomtest
SlurmctldHost=localhost(127.0.0.1)
SlurmUser=$user
SlurmdUser=$user
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$SLURM_DIR/munge.sock
CredType=cred/munge
StateSaveLocation=$SLURM_DIR/state
SlurmdSpoolDir=$SLURM_DIR/spool
SlurmctldPidFile=$SLURM_DIR/slurmctld.pid
SlurmdPidFile=$SLURM_DIR/slurmd.pid
SlurmctldLogFile=$SLURM_DIR/slurmctld.log
SlurmdLogFile=$SLURM_DIR/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MinJobAge=900
MpiDefault=none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=fathomnode NodeHostname=$(hostname) NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
  slurmctld -f "$SLURM_CONF" 2>>"$SLURM_DIR/start.err" && slurmd -f "$SLURM_CONF" -N fathomnode 2>>"$SLURM_DIR/start.err" || {
    SLURM_WHY="the daemons did not start: $(tail -n 1 "$SLURM_DIR/start.err")"
    return 1
  }
  local _
  for _ in $(seq 100); do
    [ "$(sinfo -h -o %t 2>/dev/null)" = idle ] && return 0
    sleep 0.2
  done
  SLURM_WHY="the node did not come up in 20 s: $(tail -n 1 "$SLURM_DIR/slurmd.log" 2>/dev/null) / $(tail -n 1 "$SLURM_DIR/slurmctld.log" 2>/dev/null)"
  return 1
}

slurm_stop() {
  [ -n "${SLURM_DIR:-}" ] || return 0
  scontrol shutdown >/dev/null 2>&1
  local f _
  for _ in $(seq 25); do
    [ -e "$SLURM_DIR/slurmctld.pid" ] || [ -e "$SLURM_DIR/slurmd.pid" ] || break
    sleep 0.2
  done
  for f in slurmd slurmctld munged; do
    [ -s "$SLURM_DIR/$f.pid" ] && kill "$(cat "$SLURM_DIR/$f.pid")" 2>/dev/null
  done
  SLURM_DIR=
}
