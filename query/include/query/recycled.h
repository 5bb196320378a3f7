// Allocation from a per-thread free list, for cursors that every query makes
// and drops once per term and segment. A term cursor holds a decoded block
// of postings inline (over 1 KiB), too big for malloc's per-thread cache, so
// each one costs a trip through the general allocator and its coalescing (3%
// of field.txt's top10 instructions over 20 segments).
// A class opts in with its own operator new and delete calling
// Recycled<Itself>::allocate and release (not a base class: a second base
// would make every dynamic_cast to it slower).
#pragma once

#include <cstddef>
#include <new>

namespace fts {

template <class T>
class Recycled {
 public:
  static void* allocate(size_t size) {
    if constexpr (kPooled) {
      FreeList& list = free_list();
      if (size == sizeof(T) && list.count > 0) return list.slots[--list.count];
    }
    return ::operator new(size);
  }
  static void release(void* p, size_t size) {
    if constexpr (kPooled) {
      FreeList& list = free_list();
      if (size == sizeof(T) && list.count < kKept) {
        list.slots[list.count++] = p;
        return;
      }
    }
    ::operator delete(p);
  }

 private:
  // Enough for the cursors of a wide query over many segments; beyond it
  // memory goes back to malloc.
  static constexpr size_t kKept = 64;
#if defined(__SANITIZE_ADDRESS__)
  static constexpr bool kPooled = false;  // keep use-after-free visible to ASan
#else
  static constexpr bool kPooled = true;
#endif

  struct FreeList {
    void* slots[kKept] = {};
    size_t count = 0;
    ~FreeList() {
      while (count > 0) ::operator delete(slots[--count]);
    }
  };
  static FreeList& free_list() {
    thread_local FreeList list;
    return list;
  }
};

}  // namespace fts
