#!/usr/bin/env bash
# test_readme_figures.sh NICKAR SOURCE_ROOT -- README's quickstart output
# and match result are what the runs print (scripts/readme-figures.py
# --check; the figures that depend on the machine are left out).  A
# changed result means README must be made again:
# scripts/readme-figures.py --nickar build/nickar.
exec /usr/bin/python3 "$2/scripts/readme-figures.py" --check --nickar "$1" --readme "$2/README.md"
