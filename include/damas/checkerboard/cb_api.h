// The CheckerBoard engine API as a C caller sees it (protocol/checkerboard.md): the structs a
// caller passes by pointer, laid out as CheckerBoard's cb_interface.h lays them out, and the three
// exported functions. src/checkerboard/exports.cpp defines them; a host (tests, pydraughts, the
// CheckerBoard GUI) finds them by name in the shared library.
#pragma once

extern "C" {

struct coor {
  int x;
  int y;
};

struct CBmove {
  int jumps;     // pieces taken
  int newpiece;  // the piece code that lands on `to`
  int oldpiece;  // the piece code that leaves `from`
  coor from;
  coor to;
  coor path[12];  // path[0] = from, path[1..jumps-1] the landings between, path[jumps] = to
  coor del[12];   // the squares of the pieces taken, in the order they are jumped
  int delpiece[12];
};

int getmove(int board[8][8], int color, double maxtime, char str[1024], int* playnow, int info, int moreinfo,
            CBmove* move);
int enginecommand(const char* command, char reply[1024]);
int islegal(int board[8][8], int color, int from, int to, CBmove* move);

// The same functions as a host looks them up.
using GetMoveFunction = int (*)(int[8][8], int, double, char*, int*, int, int, CBmove*);
using EngineCommandFunction = int (*)(const char*, char*);
using IsLegalFunction = int (*)(int[8][8], int, int, int, CBmove*);
}
