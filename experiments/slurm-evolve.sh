#!/usr/bin/env bash
# slurm-evolve.sh -- an example SLURM batch script: `nickar evolve` over MPI,
# one rank per node, every core of a node playing (docs/cluster.md).
#
#   sbatch [--nodes=N] [--cpus-per-task=C] experiments/slurm-evolve.sh CONFIG.ini [--set K=V]...
#
# Rank 0 writes the run file (OUTPUT, else output.file of the config, else
# results/<experiment.name>/run.h5, relative to the directory sbatch was
# called from).  When that file exists already the run is resumed, so the
# same command continues a run that a time limit or a failure stopped.
#
# Environment: NICKAR (the binary, default build/nickar of the submit
# directory: build it there first, on a file system every node sees),
# OUTPUT (the run file), LAUNCHER (mpirun, the default, OpenMPI's launcher,
# which finds the allocation by itself; or srun, for a SLURM built with
# PMIx), NICKAR_MPI_TIMEOUT (seconds before a silent rank is given up).
#
#SBATCH --job-name=nickar-evolve
#SBATCH --nodes=4
#SBATCH --ntasks-per-node=1
#SBATCH --cpus-per-task=32
#SBATCH --time=24:00:00
#SBATCH --output=nickar-evolve-%j.log
set -euo pipefail

if [[ $# -lt 1 ]]; then
  echo "usage: sbatch experiments/slurm-evolve.sh CONFIG.ini [--set SECTION.KEY=VALUE]..." >&2
  exit 2
fi
config=$1
shift
cd "${SLURM_SUBMIT_DIR:-.}"
nickar=${NICKAR:-build/nickar}
threads=${SLURM_CPUS_PER_TASK:-$(nproc)}

# The run file, as nickar will resolve it (the --set options included).
resolved=$("$nickar" evolve "$config" "$@" --print-config)
key() { sed -n "/^\[$1\]/,/^\[/{s/^$2 = //p}" <<<"$resolved" | head -1; }
out=${OUTPUT:-$(key output file)}
[[ -n $out ]] || out=results/$(key experiment name)/run.h5
resume=()
[[ -f $out ]] && resume=(--resume)

echo "nickar: $config -> $out on ${SLURM_JOB_NUM_NODES:-1} node(s), $threads threads each" \
  "${resume[*]:+(resuming)}"
export OMP_NUM_THREADS=$threads OMP_PROC_BIND=false
args=(evolve "$config" "$@" --output "$out" --threads "$threads" "${resume[@]}")
case ${LAUNCHER:-mpirun} in
  mpirun) mpirun --map-by ppr:1:node --bind-to none -x OMP_NUM_THREADS -x NICKAR_MPI_TIMEOUT \
            "$nickar" "${args[@]}" ;;
  srun) srun --mpi=pmix --cpu-bind=none "$nickar" "${args[@]}" ;;
  *) echo "slurm-evolve: LAUNCHER is mpirun or srun, not '$LAUNCHER'" >&2; exit 2 ;;
esac
