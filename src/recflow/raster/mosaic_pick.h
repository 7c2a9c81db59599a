// mosaic's max, min and max_ndvi: a GDAL VRT pixel function that picks, per pixel, the raster whose key value is largest (or smallest).
#pragma once

namespace recflow::raster {

/// The name under which RegisterMosaicPick registers the pixel function with GDAL's VRT driver.
/// A derived band using it (`SourceTransferType` Float64) has `rasters` × (1 + `keys`) sources:
/// for raster i, in the mosaic's input order, the output band's DN, then the DN of each key band.
/// A DN equal to the band's `nodata` argument or NaN is missing (the VRT leaves a source's nodata
/// and the pixels it does not cover at the derived band's nodata). Each pixel takes the DN of the
/// raster whose key is largest (`rule` max) or smallest (min); a missing key never wins; on a tie
/// the earlier raster wins; no key at all gives `nodata`. The key: with `keys` 0, the output
/// band's DN × `scale`; otherwise the band_math expression `key` over the names `key_name_<j>`, the
/// key bands' values DN × `key_scale_<j>` + `key_offset_<j>` (NaN where missing), so every band of
/// a pixel comes from the one raster whose key (NDVI, a computed band) wins there.
inline constexpr char kMosaicPickFunction[] = "recflow_mosaic_pick";

/// Registers kMosaicPickFunction with GDAL; InitGdal calls it once, before any dataset is opened.
void RegisterMosaicPick();

}  // namespace recflow::raster
