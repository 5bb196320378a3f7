#include "serve/index_holder.h"

#include <sys/stat.h>

#include <utility>

namespace fts::serve {

IndexHolder::IndexHolder(std::string dir, size_t cache_bytes) : dir_(std::move(dir)), cache_bytes_(cache_bytes) {
  seen_ = stamp();
  auto index = std::make_shared<const Index>(Index::open(dir_, cache_bytes_));
  generation_ = InternalAccess::reader(*index).generation();
  index_ = std::move(index);
}

std::shared_ptr<const Index> IndexHolder::current() const {
  std::lock_guard lk(mu_);
  return index_;
}

uint64_t IndexHolder::reloads() const {
  std::lock_guard lk(mu_);
  return reloads_;
}

IndexHolder::DirStamp IndexHolder::stamp() const {
  struct stat st {};
  if (::stat(dir_.c_str(), &st) != 0) return {};
  return {static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec, static_cast<uint64_t>(st.st_ino)};
}

std::string IndexHolder::reload_if_changed() {
  DirStamp now = stamp();
  {
    std::lock_guard lk(mu_);
    if (now == seen_) return "";
  }
  try {
    auto index = std::make_shared<const Index>(Index::open(dir_, cache_bytes_));
    std::lock_guard lk(mu_);
    seen_ = now;
    // Files came and went without a commit (a writer's temporary files):
    // keep the snapshot, and its filter cache.
    if (InternalAccess::reader(*index).generation() == generation_) return "";
    generation_ = InternalAccess::reader(*index).generation();
    index_ = std::move(index);
    ++reloads_;
    return "";
  } catch (const std::exception& e) {
    // Retried at the next look: the stamp is not recorded.
    return e.what();
  }
}

}  // namespace fts::serve
