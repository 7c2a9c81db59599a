#!/usr/bin/python3
"""The peer of bench/raster_evi.py: EVI as a rasterio + NumPy user writes it (seed 003's DoFn body).

Usage: raster_evi_numpy.py BLUE RED NIR OUT — reads each band whole, DN × 0.0001 as float32 with DN 0 as NaN,
EVI = 2.5 (nir − red) / (nir + 6 red − 7.5 blue + 1) with the evi step's rule (NaN where a band is outside [0, 1],
the denominator is not positive or EVI is outside [-1, 1]; docs/raster.md), written as a float32 tiled DEFLATE GeoTIFF (predictor 3,
512 × 512 tiles, NaN nodata) on the red band's grid: the same output options as the recflow side.
"""
import sys
from pathlib import Path

import numpy as np
import rasterio

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "python"))
from evi_rule import evi_numpy  # noqa: E402


def reflectance(path):
    with rasterio.open(path) as src:
        dn = src.read(1)
        profile = src.profile
    value = dn.astype(np.float32) * np.float32(1e-4)
    value[dn == 0] = np.nan
    return value, profile


def main():
    blue_path, red_path, nir_path, out = sys.argv[1:5]
    blue, _ = reflectance(blue_path)
    red, profile = reflectance(red_path)
    nir, _ = reflectance(nir_path)
    evi = evi_numpy(blue, red, nir)
    profile.update(dtype="float32", nodata=np.nan, compress="deflate", predictor=3, tiled=True, blockxsize=512,
                   blockysize=512, count=1)
    with rasterio.open(out, "w", **profile) as dst:
        dst.write(evi, 1)


if __name__ == "__main__":
    main()
