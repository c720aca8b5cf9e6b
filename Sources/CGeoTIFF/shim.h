#ifndef SKATEROUTE_CGEOTIFF_H
#define SKATEROUTE_CGEOTIFF_H
// libtiff + libgeotiff (Debian: libtiff-dev, libgeotiff-dev), with small wrappers for the
// variadic calls (TIFFGetField, TIFFSetField, GTIFKeySet) Swift cannot import.
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

static int skr_tiff_on_error(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap) {
    (void)tif; (void)module;
    skr_tiff_errors *e = (skr_tiff_errors *)user;
    if (e && e->message[0] == 0) vsnprintf(e->message, sizeof e->message, fmt, ap);
    return 1;  // handled: libtiff's global handler (stderr) stays quiet
}

static int skr_tiff_on_warning(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap) {
    (void)tif; (void)module; (void)fmt; (void)ap;
    skr_tiff_errors *e = (skr_tiff_errors *)user;
    if (e) e->warnings += 1;
    return 1;
}

/// Opens a TIFF; errors and warnings go to `errors` (which must outlive the handle), never to
/// stderr. `mode` is "r" or "w". Call XTIFFInitialize() once per process before (it registers
/// the GeoTIFF tags and is not thread-safe: SkateImport's `GeoTIFFLibrary.prepare()` does it once).
static TIFF *skr_tiff_open(const char *path, const char *mode, skr_tiff_errors *errors) {
    TIFFOpenOptions *opts = TIFFOpenOptionsAlloc();
    TIFFOpenOptionsSetErrorHandlerExtR(opts, skr_tiff_on_error, errors);
    TIFFOpenOptionsSetWarningHandlerExtR(opts, skr_tiff_on_warning, errors);
    TIFF *tif = TIFFOpenExt(path, mode, opts);
    TIFFOpenOptionsFree(opts);
    return tif;
}

static int skr_tiff_get_u16(TIFF *tif, uint32_t tag, uint16_t *value) {
    return TIFFGetFieldDefaulted(tif, tag, value);
}

static int skr_tiff_get_u32(TIFF *tif, uint32_t tag, uint32_t *value) {
    return TIFFGetFieldDefaulted(tif, tag, value);
}

/// An ASCII tag's text (e.g. GDAL_NODATA), or NULL when absent.
static const char *skr_tiff_get_ascii(TIFF *tif, uint32_t tag) {
    const TIFFField *field = TIFFFieldWithTag(tif, tag);
    if (!field || TIFFFieldDataType(field) != TIFF_ASCII) return NULL;
    char *text = NULL;
    if (TIFFFieldPassCount(field)) {
        if (TIFFFieldReadCount(field) == TIFF_VARIABLE2) {
            uint32_t n = 0;
            if (!TIFFGetField(tif, tag, &n, &text)) return NULL;
        } else {
            uint16_t n = 0;
            if (!TIFFGetField(tif, tag, &n, &text)) return NULL;
        }
    } else if (!TIFFGetField(tif, tag, &text)) {
        return NULL;
    }
    return text;
}

static int skr_tiff_set_u16(TIFF *tif, uint32_t tag, uint16_t value) { return TIFFSetField(tif, tag, (int)value); }
static int skr_tiff_set_u32(TIFF *tif, uint32_t tag, uint32_t value) { return TIFFSetField(tif, tag, value); }
static int skr_tiff_set_ascii(TIFF *tif, uint32_t tag, const char *value) { return TIFFSetField(tif, tag, value); }
/// Sets a counted double array tag (ModelPixelScale, ModelTiepoint, ModelTransformation).
static int skr_tiff_set_doubles(TIFF *tif, uint32_t tag, uint16_t count, const double *values) {
    return TIFFSetField(tif, tag, count, values);
}
static int skr_gtif_set_short(GTIF *gtif, geokey_t key, uint16_t value) {
    return GTIFKeySet(gtif, key, TYPE_SHORT, 1, (int)value);
}
#endif
