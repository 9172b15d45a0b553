#!/usr/bin/env bash
# setup.sh -- installs the Debian 12 packages that nickar needs, if missing.
#
# Run by demo.sh and test.sh.  Missing packages are found with
# dpkg-query and installed with apt-get (as root, or through sudo when sudo
# needs no password); otherwise it prints the one apt-get line to run and
# exits 1.  This file keeps nickar's one list of packages.
set -euo pipefail

packages=(
  build-essential cmake pkg-config          # compiler, build
  libgsl-dev libhdf5-dev libinih-dev        # libraries
  libglpk-dev                               # linear programs (the Nash average)
  libopenmpi-dev openmpi-bin                # distributed runs
  libcmocka-dev valgrind                    # tests
  clang libclang-rt-dev                     # the fuzz harness (libFuzzer)
  python3 python3-h5py python3-matplotlib python3-numpy python3-pandas  # analysis, tests
  python3-pytest python3-pip python3-setuptools   # the Python package (python/): tests, pip install
  jupyter-nbconvert python3-ipykernel python3-nbformat   # notebooks
  chromium                                  # the browser test of nickar view
)

if ! command -v dpkg-query >/dev/null 2>&1; then
  echo "setup: not a Debian system (no dpkg-query); make sure these, or their" \
       "equivalents, are installed: ${packages[*]}" >&2
  exit 0
fi

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi

if [[ $(id -u) -eq 0 ]]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo=(sudo -n)
elif command -v sudo >/dev/null 2>&1; then
  echo "setup: missing Debian packages (${missing[*]}); run this line, then the" \
       "same command again:" >&2
  echo "sudo apt-get update && sudo apt-get install -y ${missing[*]}"
  exit 1
else
  echo "setup: missing Debian packages (${missing[*]}); run this line as root" \
       "(su -), then the same command again:" >&2
  echo "apt-get update && apt-get install -y ${missing[*]}"
  exit 1
fi
echo "setup: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update
"${sudo[@]}" apt-get install -y "${missing[@]}"
