#ifndef SKATEROUTE_CGEOTIFF_H
#define SKATEROUTE_CGEOTIFF_H
// libtiff + libgeotiff (Debian: libtiff-dev, libgeotiff-dev at build time; libtiff6 and
// libgeotiff5 at run time), loaded with dlopen on the first GeoTIFF import rather than linked:
// libgeotiff pulls in libproj, libcurl and ~40 more shared libraries, which every `skateroute`
// process (a plan, --help) would otherwise map and relocate at start-up (measured: 17.7 ms for
// --help linked, against ~5 ms without). The headers give the types and constants; every call
// goes through a function pointer resolved once per process (`skr_geotiff_load` in shim.c, a C
// target so the table exists once). Small wrappers also cover the variadic calls (TIFFGetField,
// TIFFSetField, GTIFKeySet) Swift cannot import.
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <tiffio.h>
#include <geotiff/xtiffio.h>
#include <geotiff/geotiffio.h>

/// The first error (and warning count) libtiff reported for one open file.
typedef struct {
    char message[256];
    int warnings;
} skr_tiff_errors;

const char *skr_geotiff_load(void);
TIFF *skr_tiff_open(const char *path, const char *mode, skr_tiff_errors *errors);
int skr_tiff_get_u16(TIFF *tif, uint32_t tag, uint16_t *value);
int skr_tiff_get_u32(TIFF *tif, uint32_t tag, uint32_t *value);
const char *skr_tiff_get_ascii(TIFF *tif, uint32_t tag);
int skr_tiff_set_u16(TIFF *tif, uint32_t tag, uint16_t value);
int skr_tiff_set_u32(TIFF *tif, uint32_t tag, uint32_t value);
int skr_tiff_set_ascii(TIFF *tif, uint32_t tag, const char *value);
int skr_tiff_set_doubles(TIFF *tif, uint32_t tag, uint16_t count, const double *values);
int skr_gtif_set_short(GTIF *gtif, geokey_t key, uint16_t value);
int skr_TIFFIsTiled(TIFF *t);
tmsize_t skr_TIFFTileSize(TIFF *t);
tmsize_t skr_TIFFStripSize(TIFF *t);
uint32_t skr_TIFFComputeTile(TIFF *t, uint32_t x, uint32_t y, uint32_t z, uint16_t s);
uint32_t skr_TIFFComputeStrip(TIFF *t, uint32_t row, uint16_t s);
tmsize_t skr_TIFFReadEncodedTile(TIFF *t, uint32_t tile, void *buf, tmsize_t size);
tmsize_t skr_TIFFReadEncodedStrip(TIFF *t, uint32_t strip, void *buf, tmsize_t size);
tmsize_t skr_TIFFWriteEncodedTile(TIFF *t, uint32_t tile, void *buf, tmsize_t size);
tmsize_t skr_TIFFWriteEncodedStrip(TIFF *t, uint32_t strip, void *buf, tmsize_t size);
void skr_XTIFFClose(TIFF *t);
GTIF *skr_GTIFNew(void *tif);
void skr_GTIFFree(GTIF *g);
int skr_GTIFKeyGetSHORT(GTIF *g, geokey_t key, unsigned short *val, int index, int count);
int skr_GTIFWriteKeys(GTIF *g);
int skr_GTIFImageToPCS(GTIF *g, double *x, double *y);
#endif
