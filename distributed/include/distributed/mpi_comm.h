// The few collective operations the distributed build and search need, over
// an MPI communicator (Open MPI), with std types in and out. Every call is
// collective: each rank of the communicator must make it, in the same order.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "fts/errors.h"

namespace fts {

// MPI_Init on construction (threads: funneled, only the main thread calls
// MPI), MPI_Finalize on destruction. One per process.
class MpiSession {
 public:
  MpiSession(int& argc, char**& argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
};

// A failure on one or more ranks, as every rank learns it from agree():
// where() names the ranks ("rank 1"), what() says what each hit.
class RankError : public Error {
 public:
  using Error::Error;
};

class Comm {
 public:
  explicit Comm(MPI_Comm comm);
  int rank() const { return rank_; }
  int size() const { return size_; }
  bool is_root() const { return rank_ == 0; }
  MPI_Comm get() const { return comm_; }
  // Ranks on this machine (MPI_COMM_TYPE_SHARED): they share its cores.
  int ranks_on_this_machine() const;

  void broadcast(std::string& text, int root = 0) const;
  // Element-wise sums over the ranks, on every rank.
  void sum(std::vector<uint64_t>& values) const;
  // Each rank's bytes, in rank order, at root (empty elsewhere).
  std::vector<std::string> gather(const std::string& mine, int root = 0) const;
  // Each rank's values (the same count on every rank), in rank order, on every rank.
  std::vector<uint64_t> all_gather(const std::vector<uint64_t>& mine) const;
  void barrier() const;

  // Runs step on every rank; if it threw on any, every rank throws one
  // RankError naming each failed rank and its message. Without it a rank
  // that fails alone would leave the others waiting in the next collective.
  template <class Step>
  void agree(Step&& step) const {
    std::string error;
    try {
      step();
    } catch (const std::exception& e) {
      error = e.what();
      if (error.empty()) error = "failed";
    }
    raise_if_any(error);
  }

 private:
  void raise_if_any(const std::string& error) const;

  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
};

}  // namespace fts
