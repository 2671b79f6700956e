// Shim over ncursesw for Swift: wide-character API switched on, and functions for what Swift cannot
// import directly (macros, and globals that Swift 6 rejects as shared mutable state).
#ifndef SKIFF_CNCURSES_SHIM_H
#define SKIFF_CNCURSES_SHIM_H

#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <langinfo.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>
#include <ncurses.h>
#include <term.h>

/// Opens a curses screen on standard output / input for the named terminal type; NULL when unknown.
static inline SCREEN *skiff_newterm(const char *type) {
    return newterm(type, stdout, stdin);
}

static inline int skiff_cols(void) { return COLS; }
static inline int skiff_lines(void) { return LINES; }

static inline int skiff_keypad(bool on) { return keypad(stdscr, on); }
static inline int skiff_clearok(bool on) { return clearok(stdscr, on); }
static inline int skiff_refresh(void) { return wrefresh(stdscr); }
static inline int skiff_erase(void) { return werase(stdscr); }

/// Scrolls the screen's lines top...bottom by `count` lines (up when positive), leaving blank lines behind; scrolling is
/// switched off again at once, so writing the last cell never scrolls. False when ncurses refuses.
static inline bool skiff_scroll_region(int top, int bottom, int count) {
    scrollok(stdscr, TRUE);
    int result = wsetscrreg(stdscr, top, bottom);
    if (result != ERR) {
        result = wscrl(stdscr, count);
    }
    wsetscrreg(stdscr, 0, LINES - 1);
    scrollok(stdscr, FALSE);
    return result != ERR;
}

static inline attr_t skiff_a_bold(void) { return A_BOLD; }
static inline attr_t skiff_a_dim(void) { return A_DIM; }
static inline attr_t skiff_a_reverse(void) { return A_REVERSE; }
static inline attr_t skiff_a_underline(void) { return A_UNDERLINE; }

/// Writes one cell: up to CCHARW_MAX wide characters (a base and what joins it) with attributes and colour pair.
static inline int skiff_put_cell(int y, int x, const wchar_t *text, attr_t attrs, short pair) {
    cchar_t cell;
    if (setcchar(&cell, text, attrs, pair, NULL) == ERR) {
        return ERR;
    }
    return mvwadd_wch(stdscr, y, x, &cell);
}

/// Returns a terminfo string capability, or NULL when the terminal does not have it.
static inline const char *skiff_tigetstr(const char *name) {
    char *value = tigetstr(name);
    if (value == NULL || value == (char *)-1) {
        return NULL;
    }
    return value;
}

/// Returns true when the current locale's character set is UTF-8.
static inline bool skiff_locale_is_utf8(void) {
    const char *codeset = nl_langinfo(CODESET);
    return codeset != NULL && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0);
}

int wcwidth(wchar_t c);

#endif
