// Runs task(0) ... task(n - 1) on up to `threads` threads: the caller's and
// those of one pool the process shares, started on first use with a thread
// per core but one. The caller takes tasks too, so a busy pool only slows
// the call down to one thread, never blocks it. Returns when every task
// has run; the first exception a task threw is then rethrown.
#pragma once

#include <cstddef>
#include <functional>

namespace fts {

void parallel_for(size_t n, unsigned threads, const std::function<void(size_t)>& task);

}  // namespace fts
