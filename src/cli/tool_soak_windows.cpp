// `damas soak` on Windows: not available. It measures `damas serve` from outside with Linux's
// process facts (/proc: peak memory; signals: the clean stop), and the load figures of
// bench/web-load.md are taken on Linux.
#include <iostream>

#include "damas/cli/cli.h"

namespace damas::cli {

int soak_main(const Args&) {
  std::cerr
      << "damas soak: not available on Windows (it measures damas serve under Linux; bench/web-load.md)\n";
  return 2;
}

}  // namespace damas::cli
