// The Cluster of cluster.h on MPI (compiled when CMake finds MPI: DAMAS_MPI). MPI is started
// only here, when a build asks for it (`damas egdb build --mpi`).
#include <mpi.h>

#include <algorithm>

#include "damas/egdb/cluster.h"

namespace damas::egdb {
namespace {

// MPI counts are ints: long messages go in pieces.
constexpr std::uint64_t kPiece = 1ULL << 30;

class MpiCluster final : public Cluster {
 public:
  MpiCluster() {
    MPI_Init(nullptr, nullptr);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  ~MpiCluster() override { MPI_Finalize(); }
  MpiCluster(const MpiCluster&) = delete;
  MpiCluster& operator=(const MpiCluster&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }

  void send(int to, const Bytes& bytes) override {
    std::uint64_t n = bytes.size();
    MPI_Send(&n, 1, MPI_UINT64_T, to, 0, MPI_COMM_WORLD);
    for (std::uint64_t at = 0; at < n; at += kPiece)
      MPI_Send(bytes.data() + at, piece(n, at), MPI_BYTE, to, 0, MPI_COMM_WORLD);
  }

  Bytes receive(int from) override {
    std::uint64_t n = 0;
    MPI_Recv(&n, 1, MPI_UINT64_T, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    Bytes bytes(n);
    for (std::uint64_t at = 0; at < n; at += kPiece)
      MPI_Recv(bytes.data() + at, piece(n, at), MPI_BYTE, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return bytes;
  }

  void broadcast(int root, Bytes& bytes) override {
    std::uint64_t n = bytes.size();
    MPI_Bcast(&n, 1, MPI_UINT64_T, root, MPI_COMM_WORLD);
    if (rank_ != root) bytes.assign(n, 0);
    for (std::uint64_t at = 0; at < n; at += kPiece)
      MPI_Bcast(bytes.data() + at, piece(n, at), MPI_BYTE, root, MPI_COMM_WORLD);
  }

 private:
  static int piece(std::uint64_t n, std::uint64_t at) { return static_cast<int>(std::min(kPiece, n - at)); }
  int rank_ = 0, size_ = 1;
};

}  // namespace

bool mpi_built() { return true; }

Expected<std::unique_ptr<Cluster>> join_mpi() {
  return std::unique_ptr<Cluster>(std::make_unique<MpiCluster>());
}

}  // namespace damas::egdb
