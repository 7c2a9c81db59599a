#!/bin/bash
# GDAL's own multi-threaded GTiff writer alone: gdal_translate of a float32 raster to tiled DEFLATE (predictor 3)
# with NUM_THREADS=1 and 2, alternating for ROUNDS rounds; prints wall, user and sys seconds of each run.
# Usage: bench/raster_gdal_deflate_threads.sh INPUT.tif [ROUNDS]   (INPUT: e.g. the numpy.tif of bench/raster_evi.py)
set -euo pipefail
input=$1
rounds=${2:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gdal_translate -q -ot Float32 -co TILED=YES -co COMPRESS=NONE "$input" "$work/in.tif"
for _ in $(seq "$rounds"); do
  for n in 1 2; do
    rm -f "$work/out.tif"
    /usr/bin/time -f "NUM_THREADS=$n wall %e s user %U s sys %S s" gdal_translate -q -co TILED=YES \
      -co COMPRESS=DEFLATE -co PREDICTOR=3 -co NUM_THREADS=$n --config GDAL_CACHEMAX 128 "$work/in.tif" "$work/out.tif"
  done
done
