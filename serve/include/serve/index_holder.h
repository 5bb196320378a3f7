// The index snapshot requests search. A commit by any writer is picked up
// without a restart: this server's own writer (serve/doc_writer.h) calls
// refresh() before it acknowledges a commit, reload_if_changed() runs on a
// timer for the others (an fts-index run); each request takes the snapshot
// current when it starts, so a request never sees half of a commit.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "fts/index.h"

namespace fts::serve {

class IndexHolder {
 public:
  // Throws IndexError when dir holds no readable index.
  IndexHolder(std::string dir, size_t cache_bytes);

  std::shared_ptr<const Index> current() const;
  const std::string& dir() const { return dir_; }
  uint64_t reloads() const;

  // Opens the index again when the directory changed since the last look
  // (a commit renames the manifest into it). Returns an empty string, or the
  // one-line reason the new state could not be opened (the old snapshot
  // stays in use).
  std::string reload_if_changed();
  // Reopens the index at its last commit (Index::reopen: unchanged segments
  // and the filter cache are shared) and swaps it in if it is newer. Returns
  // an empty string or the one-line reason it could not be opened.
  std::string refresh();

 private:
  struct DirStamp {
    int64_t mtime_ns = 0;
    uint64_t inode = 0;
    bool operator==(const DirStamp&) const = default;
  };
  DirStamp stamp() const;

  std::string dir_;
  mutable std::mutex mu_;  // guards index_, seen_, reloads_; held only to read or swap
  std::mutex refresh_mu_;
  std::shared_ptr<const Index> index_;
  DirStamp seen_;
  uint64_t reloads_ = 0;
};

}  // namespace fts::serve
