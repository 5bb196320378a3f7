#include "distributed/mpi_comm.h"

namespace fts {

MpiSession::MpiSession(int& argc, char**& argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
}

MpiSession::~MpiSession() { MPI_Finalize(); }

Comm::Comm(MPI_Comm comm) : comm_(comm) {
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
}

int Comm::ranks_on_this_machine() const {
  MPI_Comm local;
  MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &local);
  int n = 1;
  MPI_Comm_size(local, &n);
  MPI_Comm_free(&local);
  return n;
}

void Comm::broadcast(std::string& text, int root) const {
  uint64_t size = text.size();
  MPI_Bcast(&size, 1, MPI_UINT64_T, root, comm_);
  text.resize(size);
  // Counts are ints: send in pieces below 2 GiB.
  for (uint64_t at = 0; at < size;) {
    const int n = static_cast<int>(std::min<uint64_t>(size - at, 1u << 30));
    MPI_Bcast(text.data() + at, n, MPI_CHAR, root, comm_);
    at += n;
  }
}

void Comm::sum(std::vector<uint64_t>& values) const {
  if (values.empty()) return;
  MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_UINT64_T, MPI_SUM, comm_);
}

std::vector<std::string> Comm::gather(const std::string& mine, int root) const {
  const int n = static_cast<int>(mine.size());
  std::vector<int> sizes(rank_ == root ? size_ : 0);
  MPI_Gather(&n, 1, MPI_INT, sizes.data(), 1, MPI_INT, root, comm_);
  std::vector<int> offsets(sizes.size());
  std::string all;
  if (rank_ == root) {
    int64_t total = 0;
    for (int r = 0; r < size_; ++r) {
      offsets[r] = static_cast<int>(total);
      total += sizes[r];
    }
    if (total > INT32_MAX) throw Error("rank " + std::to_string(root), "more than 2 GiB gathered at once");
    all.resize(total);
  }
  MPI_Gatherv(mine.data(), n, MPI_CHAR, all.data(), sizes.data(), offsets.data(), MPI_CHAR, root, comm_);
  std::vector<std::string> out;
  for (size_t r = 0; r < sizes.size(); ++r) out.push_back(all.substr(offsets[r], sizes[r]));
  return out;
}

std::vector<uint64_t> Comm::all_gather(const std::vector<uint64_t>& mine) const {
  std::vector<uint64_t> out(mine.size() * size_);
  MPI_Allgather(mine.data(), static_cast<int>(mine.size()), MPI_UINT64_T, out.data(), static_cast<int>(mine.size()),
                MPI_UINT64_T, comm_);
  return out;
}

void Comm::barrier() const { MPI_Barrier(comm_); }

void Comm::raise_if_any(const std::string& error) const {
  std::vector<uint64_t> failed(size_, 0);
  failed[rank_] = error.empty() ? 0 : 1;
  sum(failed);
  bool any = false;
  for (uint64_t f : failed) any = any || f;
  if (!any) return;
  // Every rank learns every message (few, short): each can report them.
  std::string where, message;
  std::vector<std::string> all = gather(error, 0);
  if (rank_ == 0) {
    std::vector<int> ranks;
    bool alike = true;  // every rank failed the same way: say it once
    for (int r = 0; r < size_; ++r) {
      if (!failed[r]) continue;
      ranks.push_back(r);
      alike = alike && all[r] == all[ranks[0]];
    }
    if (ranks.size() == 1 || (alike && ranks.size() == static_cast<size_t>(size_))) {
      if (ranks.size() == 1 && size_ > 1) where = "rank " + std::to_string(ranks[0]);
      message = all[ranks[0]];
    } else {
      where = "ranks";
      for (int r : ranks) {
        where += (r == ranks[0] ? " " : ", ") + std::to_string(r);
        message += (message.empty() ? "" : "; ") + ("rank " + std::to_string(r) + ": ") + all[r];
      }
    }
  }
  broadcast(where);
  broadcast(message);
  throw RankError(where, message);
}

}  // namespace fts
