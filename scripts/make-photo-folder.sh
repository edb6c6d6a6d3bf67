#!/bin/sh
# Makes a folder of N photos (hard links to the bundled ones, distinct names) for
# measuring start-up over large photo folders: scripts/make-photo-folder.sh 20000 /tmp/photos20k
set -eu
count=${1:?usage: make-photo-folder.sh COUNT DIR}
dir=${2:?usage: make-photo-folder.sh COUNT DIR}
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$dir"
set -- "$here"/Assets/photos/*
n=0
while [ "$n" -lt "$count" ]; do
    for photo in "$@"; do
        [ "$n" -lt "$count" ] || break
        ln -f "$photo" "$dir/photo-$(printf %06d "$n").${photo##*.}" 2>/dev/null || cp "$photo" "$dir/photo-$(printf %06d "$n").${photo##*.}"
        n=$((n + 1))
    done
done
echo "$dir: $count photos"
