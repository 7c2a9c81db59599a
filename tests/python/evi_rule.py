"""EVI in NumPy with the evi step's valid-pixel rule: the oracle of the raster tests and the computation of the
benchmark peer bench/raster_evi_numpy.py (which puts this directory on sys.path)."""
import numpy as np


def evi_numpy(blue, red, nir):
    """EVI of reflectance bands with the evi step's rule (docs/raster.md, "EVI's valid pixels"): NaN where a band is
    outside [0, 1], where the denominator is not positive, or where the value is outside [-1, 1]; float32."""
    with np.errstate(divide="ignore", invalid="ignore"):
        denominator = nir + 6 * red - 7.5 * blue + 1
        evi = 2.5 * (nir - red) / denominator
    valid = (denominator > 0) & (np.abs(evi) <= 1)
    for band in (blue, red, nir):
        valid &= (band >= 0) & (band <= 1)
    evi[~valid] = np.nan
    return evi.astype(np.float32, copy=False)
