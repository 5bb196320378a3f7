#include "serve/index_holder.h"

#include <sys/stat.h>

#include <utility>

namespace fts::serve {

IndexHolder::IndexHolder(std::string dir, size_t cache_bytes) : dir_(std::move(dir)) {
  seen_ = stamp();
  index_ = std::make_shared<const Index>(Index::open(dir_, cache_bytes));
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
  std::string why = refresh();
  // On failure the stamp is not recorded: retried at the next look.
  if (why.empty()) {
    std::lock_guard lk(mu_);
    seen_ = now;
  }
  return why;
}

std::string IndexHolder::refresh() {
  // One refresh at a time (the reload timer and a commit may both ask), so
  // an older snapshot never replaces a newer one.
  std::lock_guard one_at_a_time(refresh_mu_);
  try {
    // Opened outside mu_ (file I/O): requests keep taking the old snapshot
    // meanwhile. Unchanged segments and the filter cache are shared.
    auto index = std::make_shared<const Index>(current()->reopen());
    std::lock_guard lk(mu_);
    // Files came and went without a commit (a writer's temporary files):
    // keep the snapshot.
    if (index->generation() == index_->generation()) return "";
    index_ = std::move(index);
    ++reloads_;
    return "";
  } catch (const std::exception& e) {
    return e.what();
  }
}

}  // namespace fts::serve
