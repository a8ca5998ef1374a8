#!/usr/bin/env bash
# Installs the Debian 12 packages gsched builds with, only those missing.
# Used by both README quick-start commands and by CI. Safe to run repeatedly.
set -euo pipefail
pkgs=(build-essential cmake ninja-build verilator yosys catch2 libcli11-dev nlohmann-json3-dev
      python3
      # the C++ format: .clang-format, scripts/format.sh (docs/style.md)
      clang-format
      # area/timing flow (constraints/, docs/area-timing.md): OpenSTA (`sta`), the osu018 180 nm
      # cell library, nextpnr-ice40 (its chip databases are built in)
      opensta qflow-tech-osu018 nextpnr-ice40
      # the GTKWave view test (verif/waves) opens each view in GTKWave under Xvfb
      gtkwave xvfb xauth
      # plots (sim_top/plots/, the timeline_plot test)
      python3-matplotlib
      # gsim sweep --backend slurm: verif/cli/slurm_tests.sh starts a single-node Slurm of its own
      # (slurmctld, slurmd, sbatch, squeue; auth/none, munge is slurmd's dependency)
      slurm-wlm munge)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "gsched: installing missing Debian packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
