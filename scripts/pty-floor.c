// What a list step costs through a pty without Skiff: the floor under bench-pty.py's step figures.
//
//   pty-floor write    reads a key, writes one fixed 227-byte redraw (Skiff's bytes per Down) in one write(2)
//   pty-floor rows2    ncursesw: a 13-row, 100-column list; each key moves the selection between two rows and
//                      hands ncurses only those two rows (a step that does not scroll, drawn in part)
//   pty-floor scroll   ncursesw: the same list scrolled by one row per key, all 13 rows handed to ncurses
//                      (a step that scrolls)
//
// Every mode shows "Transactions" when ready and ends on 'q' or Ctrl-Q. Built and driven by scripts/pty-floor.py.
#define _XOPEN_SOURCE_EXTENDED 1
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <ncurses.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

enum { ROWS = 13, WIDTH = 100, TOP = 5 };

static void draw_row(int screen_row, int item, int selected) {
    wchar_t line[WIDTH + 1];
    swprintf(line, WIDTH + 1, L"%c 12 Nov  Merchant %06d · Coffee%*ls-%d.%02d USD", selected ? '>' : ' ', item, 44,
             L"", item % 97, item % 100);
    int length = (int)wcslen(line);
    for (int x = 0; x < WIDTH; x++) {
        wchar_t text[2] = {x < length ? line[x] : L' ', 0};
        cchar_t cell;
        setcchar(&cell, text, selected ? A_REVERSE : A_NORMAL, 1, NULL);
        mvwadd_wch(stdscr, TOP + screen_row, x, &cell);
    }
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "write";
    char input[64];
    if (strcmp(mode, "write") == 0) {
        struct termios settings;
        tcgetattr(0, &settings);
        cfmakeraw(&settings);
        tcsetattr(0, TCSANOW, &settings);
        char frame[227];
        memset(frame, 'x', sizeof frame);
        memcpy(frame, "\x1b[12;3H", 7);
        write(1, "Transactions\r\n", 14);
        for (;;) {
            ssize_t count = read(0, input, sizeof input);
            if (count <= 0 || input[0] == 'q' || input[0] == 0x11) return 0;
            write(1, frame, sizeof frame);
        }
    }
    int scrolls = strcmp(mode, "scroll") == 0;
    setlocale(LC_ALL, "");
    newterm(NULL, stdout, stdin);
    raw();
    noecho();
    nonl();
    typeahead(-1);
    curs_set(0);
    start_color();
    use_default_colors();
    init_pair(1, COLOR_CYAN, -1);
    mvaddstr(0, 0, "Transactions");
    for (int row = 0; row < ROWS; row++) draw_row(row, row, row == 0);
    refresh();
    int top = 0, selected = 0;
    for (;;) {
        ssize_t count = read(0, input, sizeof input);
        if (count <= 0 || input[0] == 'q' || input[0] == 0x11) break;
        if (scrolls) {
            selected += 1;
            if (selected - top >= ROWS) top += 1;
            for (int row = 0; row < ROWS; row++) draw_row(row, top + row, top + row == selected);
        } else {
            selected = 1 - selected;
            draw_row(0, 0, selected == 0);
            draw_row(1, 1, selected == 1);
        }
        refresh();
    }
    endwin();
    return 0;
}
