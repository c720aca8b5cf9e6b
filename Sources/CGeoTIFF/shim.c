#include "shim.h"
#include <dlfcn.h>
#include <pthread.h>

/// The resolved entry points (NULL until `skr_geotiff_load` succeeded).
struct skr_geotiff_api {
    int loaded;
    char error[256];
    __typeof__(&TIFFOpenOptionsAlloc) TIFFOpenOptionsAlloc;
    __typeof__(&TIFFOpenOptionsSetErrorHandlerExtR) TIFFOpenOptionsSetErrorHandlerExtR;
    __typeof__(&TIFFOpenOptionsSetWarningHandlerExtR) TIFFOpenOptionsSetWarningHandlerExtR;
    __typeof__(&TIFFOpenExt) TIFFOpenExt;
    __typeof__(&TIFFOpenOptionsFree) TIFFOpenOptionsFree;
    __typeof__(&TIFFGetFieldDefaulted) TIFFGetFieldDefaulted;
    __typeof__(&TIFFGetField) TIFFGetField;
    __typeof__(&TIFFSetField) TIFFSetField;
    __typeof__(&TIFFFieldWithTag) TIFFFieldWithTag;
    __typeof__(&TIFFFieldDataType) TIFFFieldDataType;
    __typeof__(&TIFFFieldPassCount) TIFFFieldPassCount;
    __typeof__(&TIFFFieldReadCount) TIFFFieldReadCount;
    __typeof__(&TIFFIsTiled) TIFFIsTiled;
    __typeof__(&TIFFTileSize) TIFFTileSize;
    __typeof__(&TIFFStripSize) TIFFStripSize;
    __typeof__(&TIFFComputeTile) TIFFComputeTile;
    __typeof__(&TIFFComputeStrip) TIFFComputeStrip;
    __typeof__(&TIFFReadEncodedTile) TIFFReadEncodedTile;
    __typeof__(&TIFFReadEncodedStrip) TIFFReadEncodedStrip;
    __typeof__(&TIFFWriteEncodedTile) TIFFWriteEncodedTile;
    __typeof__(&TIFFWriteEncodedStrip) TIFFWriteEncodedStrip;
    __typeof__(&XTIFFInitialize) XTIFFInitialize;
    __typeof__(&XTIFFClose) XTIFFClose;
    __typeof__(&GTIFNew) GTIFNew;
    __typeof__(&GTIFFree) GTIFFree;
    __typeof__(&GTIFKeyGetSHORT) GTIFKeyGetSHORT;
    __typeof__(&GTIFKeySet) GTIFKeySet;
    __typeof__(&GTIFWriteKeys) GTIFWriteKeys;
    __typeof__(&GTIFImageToPCS) GTIFImageToPCS;
};

static struct skr_geotiff_api skr_api;
static pthread_once_t skr_api_once = PTHREAD_ONCE_INIT;

static void *skr_dlopen_first(const char *const *names) {
    for (; *names; names++) {
        void *h = dlopen(*names, RTLD_NOW | RTLD_GLOBAL);
        if (h) return h;
    }
    return NULL;
}

static void skr_geotiff_load_once(void) {
    static const char *const tiffNames[] = {"libtiff.so.6", "libtiff.so.5", "libtiff.so", NULL};
    static const char *const geotiffNames[] = {"libgeotiff.so.5", "libgeotiff.so.2", "libgeotiff.so", NULL};
    void *tiff = skr_dlopen_first(tiffNames);
    void *geotiff = tiff ? skr_dlopen_first(geotiffNames) : NULL;
    if (!tiff || !geotiff) {
        snprintf(skr_api.error, sizeof skr_api.error, "GeoTIFF support needs libtiff and libgeotiff installed (%s)",
                 dlerror() ? "apt-get install libtiff6 libgeotiff5" : "not found");
        return;
    }
    int missing = 0;
#define SKR_BIND(lib, name) do { *(void **)(&skr_api.name) = dlsym(lib, #name); if (!skr_api.name) { missing = 1; snprintf(skr_api.error, sizeof skr_api.error, "libtiff/libgeotiff lack %s (libtiff 4.5 or newer is needed)", #name); } } while (0)
    SKR_BIND(tiff, TIFFOpenOptionsAlloc); SKR_BIND(tiff, TIFFOpenOptionsSetErrorHandlerExtR);
    SKR_BIND(tiff, TIFFOpenOptionsSetWarningHandlerExtR); SKR_BIND(tiff, TIFFOpenExt); SKR_BIND(tiff, TIFFOpenOptionsFree);
    SKR_BIND(tiff, TIFFGetFieldDefaulted); SKR_BIND(tiff, TIFFGetField); SKR_BIND(tiff, TIFFSetField);
    SKR_BIND(tiff, TIFFFieldWithTag); SKR_BIND(tiff, TIFFFieldDataType); SKR_BIND(tiff, TIFFFieldPassCount);
    SKR_BIND(tiff, TIFFFieldReadCount); SKR_BIND(tiff, TIFFIsTiled); SKR_BIND(tiff, TIFFTileSize);
    SKR_BIND(tiff, TIFFStripSize); SKR_BIND(tiff, TIFFComputeTile); SKR_BIND(tiff, TIFFComputeStrip);
    SKR_BIND(tiff, TIFFReadEncodedTile); SKR_BIND(tiff, TIFFReadEncodedStrip); SKR_BIND(tiff, TIFFWriteEncodedTile);
    SKR_BIND(tiff, TIFFWriteEncodedStrip);
    SKR_BIND(geotiff, XTIFFInitialize); SKR_BIND(geotiff, XTIFFClose); SKR_BIND(geotiff, GTIFNew);
    SKR_BIND(geotiff, GTIFFree); SKR_BIND(geotiff, GTIFKeyGetSHORT); SKR_BIND(geotiff, GTIFKeySet);
    SKR_BIND(geotiff, GTIFWriteKeys); SKR_BIND(geotiff, GTIFImageToPCS);
#undef SKR_BIND
    if (!missing) {
        // libgeotiff's tag extender is installed here, once per process under the once-flag
        // (XTIFFInitialize itself is not thread-safe).
        skr_api.XTIFFInitialize();
        skr_api.loaded = 1;
    }
}

/// Loads the libraries on first use; NULL when they are usable, else a one-line reason.
const char *skr_geotiff_load(void) {
    pthread_once(&skr_api_once, skr_geotiff_load_once);
    return skr_api.loaded ? NULL : skr_api.error;
}


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
/// stderr. `mode` is "r" or "w". Call `skr_geotiff_load()` first (NULL when it succeeded).
TIFF *skr_tiff_open(const char *path, const char *mode, skr_tiff_errors *errors) {
    if (skr_geotiff_load()) return NULL;
    TIFFOpenOptions *opts = skr_api.TIFFOpenOptionsAlloc();
    skr_api.TIFFOpenOptionsSetErrorHandlerExtR(opts, skr_tiff_on_error, errors);
    skr_api.TIFFOpenOptionsSetWarningHandlerExtR(opts, skr_tiff_on_warning, errors);
    TIFF *tif = skr_api.TIFFOpenExt(path, mode, opts);
    skr_api.TIFFOpenOptionsFree(opts);
    return tif;
}

int skr_tiff_get_u16(TIFF *tif, uint32_t tag, uint16_t *value) { return skr_api.TIFFGetFieldDefaulted(tif, tag, value); }
int skr_tiff_get_u32(TIFF *tif, uint32_t tag, uint32_t *value) { return skr_api.TIFFGetFieldDefaulted(tif, tag, value); }

/// An ASCII tag's text (e.g. GDAL_NODATA), or NULL when absent.
const char *skr_tiff_get_ascii(TIFF *tif, uint32_t tag) {
    const TIFFField *field = skr_api.TIFFFieldWithTag(tif, tag);
    if (!field || skr_api.TIFFFieldDataType(field) != TIFF_ASCII) return NULL;
    char *text = NULL;
    if (skr_api.TIFFFieldPassCount(field)) {
        if (skr_api.TIFFFieldReadCount(field) == TIFF_VARIABLE2) {
            uint32_t n = 0;
            if (!skr_api.TIFFGetField(tif, tag, &n, &text)) return NULL;
        } else {
            uint16_t n = 0;
            if (!skr_api.TIFFGetField(tif, tag, &n, &text)) return NULL;
        }
    } else if (!skr_api.TIFFGetField(tif, tag, &text)) {
        return NULL;
    }
    return text;
}

int skr_tiff_set_u16(TIFF *tif, uint32_t tag, uint16_t value) { return skr_api.TIFFSetField(tif, tag, (int)value); }
int skr_tiff_set_u32(TIFF *tif, uint32_t tag, uint32_t value) { return skr_api.TIFFSetField(tif, tag, value); }
int skr_tiff_set_ascii(TIFF *tif, uint32_t tag, const char *value) { return skr_api.TIFFSetField(tif, tag, value); }
/// Sets a counted double array tag (ModelPixelScale, ModelTiepoint, ModelTransformation).
int skr_tiff_set_doubles(TIFF *tif, uint32_t tag, uint16_t count, const double *values) {
    return skr_api.TIFFSetField(tif, tag, count, values);
}
int skr_gtif_set_short(GTIF *gtif, geokey_t key, uint16_t value) { return skr_api.GTIFKeySet(gtif, key, TYPE_SHORT, 1, (int)value); }

// Plain calls, through the loaded pointers.
int skr_TIFFIsTiled(TIFF *t) { return skr_api.TIFFIsTiled(t); }
tmsize_t skr_TIFFTileSize(TIFF *t) { return skr_api.TIFFTileSize(t); }
tmsize_t skr_TIFFStripSize(TIFF *t) { return skr_api.TIFFStripSize(t); }
uint32_t skr_TIFFComputeTile(TIFF *t, uint32_t x, uint32_t y, uint32_t z, uint16_t s) { return skr_api.TIFFComputeTile(t, x, y, z, s); }
uint32_t skr_TIFFComputeStrip(TIFF *t, uint32_t row, uint16_t s) { return skr_api.TIFFComputeStrip(t, row, s); }
tmsize_t skr_TIFFReadEncodedTile(TIFF *t, uint32_t tile, void *buf, tmsize_t size) { return skr_api.TIFFReadEncodedTile(t, tile, buf, size); }
tmsize_t skr_TIFFReadEncodedStrip(TIFF *t, uint32_t strip, void *buf, tmsize_t size) { return skr_api.TIFFReadEncodedStrip(t, strip, buf, size); }
tmsize_t skr_TIFFWriteEncodedTile(TIFF *t, uint32_t tile, void *buf, tmsize_t size) { return skr_api.TIFFWriteEncodedTile(t, tile, buf, size); }
tmsize_t skr_TIFFWriteEncodedStrip(TIFF *t, uint32_t strip, void *buf, tmsize_t size) { return skr_api.TIFFWriteEncodedStrip(t, strip, buf, size); }
void skr_XTIFFClose(TIFF *t) { skr_api.XTIFFClose(t); }
GTIF *skr_GTIFNew(void *tif) { return skr_api.GTIFNew(tif); }
void skr_GTIFFree(GTIF *g) { skr_api.GTIFFree(g); }
int skr_GTIFKeyGetSHORT(GTIF *g, geokey_t key, unsigned short *val, int index, int count) { return skr_api.GTIFKeyGetSHORT(g, key, val, index, count); }
int skr_GTIFWriteKeys(GTIF *g) { return skr_api.GTIFWriteKeys(g); }
int skr_GTIFImageToPCS(GTIF *g, double *x, double *y) { return skr_api.GTIFImageToPCS(g, x, y); }
