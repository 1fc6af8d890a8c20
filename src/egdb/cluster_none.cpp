// join_mpi() of a binary built without MPI (CMake found no MPI, or DAMAS_MPI=OFF).
#include "damas/egdb/cluster.h"

namespace damas::egdb {

bool mpi_built() { return false; }

Expected<std::unique_ptr<Cluster>> join_mpi() {
  return Error{"this damas was built without MPI (install libopenmpi-dev and rebuild with -DDAMAS_MPI=ON)"};
}

}  // namespace damas::egdb
