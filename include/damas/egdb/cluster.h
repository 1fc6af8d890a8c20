// Building the endgame databases on several processes (MPI ranks on a cluster) that share the
// directory of the slice files. The build is written against the small Cluster interface; MPI
// is one implementation of it (src/egdb/cluster_mpi.cpp, compiled when CMake finds MPI), and a
// binary built without MPI gets an error from join_mpi() instead.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "damas/core/expected.h"
#include "damas/egdb/egdb.h"

namespace damas::egdb {

using Bytes = std::vector<std::uint8_t>;

// The processes of one build. Every rank runs the same program and calls these in the same
// order; messages between two ranks arrive in the order they were sent.
class Cluster {
 public:
  virtual ~Cluster() = default;
  virtual int rank() const = 0;  // 0..size()-1
  virtual int size() const = 0;
  virtual void send(int to, const Bytes& bytes) = 0;
  virtual Bytes receive(int from) = 0;
  // Every rank gets root's bytes (root's own are left as they are).
  virtual void broadcast(int root, Bytes& bytes) = 0;
};

// Was this binary built with MPI?
bool mpi_built();
// The MPI ranks of this run (MPI_Init now, MPI_Finalize when the cluster is destroyed), or an
// error saying the binary was built without MPI. Call once per process.
Expected<std::unique_ptr<Cluster>> join_mpi();

// The slices whose values the leaving moves (captures, crownings) of a position of m look up.
std::vector<Material> dependencies(const Material& m);
// The slices up to `pieces` in waves: a slice's dependencies all lie in earlier waves, so the
// slices of one wave can be solved at the same time.
std::vector<std::vector<Material>> build_waves(int pieces);

// The build of build() spread over the ranks, wave by wave: rank 0 checks which files are
// already sound (resume), the first pass over the slices to compute is split by number ranges
// over all ranks, each slice's owner gathers its ranges, spreads the values, writes its file,
// and sends the codes to every rank, which keeps them while a later wave looks them up. Every
// rank gets the same report (or the same error).
// options.threads is per rank; options.on_progress is called on rank 0 only;
// options.max_new_slices is not supported (0).
Expected<BuildReport> build_on_cluster(const BuildOptions& options, Cluster& cluster);

}  // namespace damas::egdb
