#ifndef SKATEROUTE_CNCURSESW_H
#define SKATEROUTE_CNCURSESW_H
// The wide-character API is hidden unless this is defined before the header.
#define NCURSES_WIDECHAR 1
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <locale.h>
#include <ncursesw/curses.h>

// Swift imports neither ncurses' mutable globals (strict concurrency) nor its macros:
// read them through these functions.
static inline WINDOW *sr_stdscr(void) { return stdscr; }
static inline int sr_cols(void) { return COLS; }
static inline int sr_lines(void) { return LINES; }
static inline int sr_colors(void) { return COLORS; }
static inline int sr_color_pairs(void) { return COLOR_PAIRS; }
static inline int sr_color_pair(int n) { return (int)COLOR_PAIR(n); }
static inline int sr_key_resize(void) { return KEY_RESIZE; }
static inline int sr_err(void) { return ERR; }

static const unsigned int SR_A_NORMAL = A_NORMAL;
static const unsigned int SR_A_BOLD = A_BOLD;
static const unsigned int SR_A_DIM = A_DIM;
static const unsigned int SR_A_REVERSE = A_REVERSE;
static const unsigned int SR_A_UNDERLINE = A_UNDERLINE;

/// Writes one cell (a UTF-8 encoded grapheme up to 4 code points) with attributes and a colour pair.
static inline int sr_put_cell(int y, int x, const wchar_t *wch, attr_t attrs, short pair) {
    cchar_t cc;
    if (setcchar(&cc, wch, attrs, pair, NULL) == ERR) return ERR;
    return mvadd_wch(y, x, &cc);
}
#endif
