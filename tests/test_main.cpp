// The test runner. The tests do not depend on an opening book the machine or the source tree has
// (bench/brazilian.book): unless DAMAS_BOOK is set, it is "none" for the tests and the commands
// they run; a test that wants a book names its file.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <cstdlib>

int main(int argc, char* argv[]) {
  setenv("DAMAS_BOOK", "none", 0);
  return Catch::Session().run(argc, argv);
}
